public import HealthModel

/// How HealthKit's types become FHIR R4 Observations (docs/FHIR_EXPORT.md has the same table):
/// a LOINC code and the UCUM unit its value is written in where a standard code exists, the
/// Observation category, and for every type a coding in HealthVault's own code system, so no
/// type is dropped.
public enum FHIRMapping {
    public static let loincSystem = "http://loinc.org"
    public static let ucumSystem = "http://unitsofmeasure.org"
    public static let categorySystem = "http://terminology.hl7.org/CodeSystem/observation-category"
    /// HealthVault's code systems: the HealthKit identifier of a type, a category value's case
    /// name, a workout activity type's case name, a characteristic's value, and the source.
    public static let typeSystem = "urn:healthvault:healthkit-type"
    public static let categoryValueSystem = "urn:healthvault:category-value"
    public static let activityTypeSystem = "urn:healthvault:workout-activity-type"
    public static let characteristicSystem = "urn:healthvault:characteristic-value"
    public static let sourceSystem = "urn:healthvault:source"

    public struct Code: Sendable {
        public let loinc: String
        public let display: String
        /// The unit the value is written in: HealthKit's spelling and its UCUM code.
        public let unit: String
        public let ucum: String
        public let category: String

        init(_ loinc: String, _ display: String, _ unit: String, _ ucum: String, _ category: String) {
            self.loinc = loinc
            self.display = display
            self.unit = unit
            self.ucum = ucum
            self.category = category
        }
    }

    /// The quantity types with a standard code. Percentages (oxygen saturation, body fat) are
    /// written in percent (HealthKit's 0.97 is 97 %).
    public static let quantityCodes: [QuantityTypeIdentifier: Code] = [
        .heartRate: Code("8867-4", "Heart rate", "count/min", "/min", "vital-signs"),
        .restingHeartRate: Code("40443-4", "Heart rate --resting", "count/min", "/min", "vital-signs"),
        .heartRateVariabilitySDNN: Code(
            "80404-7",
            "R-R interval.standard deviation (Heart rate variability)",
            "ms",
            "ms",
            "vital-signs"
        ),
        .respiratoryRate: Code("9279-1", "Respiratory rate", "count/min", "/min", "vital-signs"),
        .oxygenSaturation: Code(
            "59408-5",
            "Oxygen saturation in Arterial blood by Pulse oximetry",
            "%",
            "%",
            "vital-signs"
        ),
        .bodyTemperature: Code("8310-5", "Body temperature", "degC", "Cel", "vital-signs"),
        .height: Code("8302-2", "Body height", "cm", "cm", "vital-signs"),
        .bodyMass: Code("29463-7", "Body weight", "kg", "kg", "vital-signs"),
        .bodyMassIndex: Code("39156-5", "Body mass index (BMI) [Ratio]", "count", "kg/m2", "vital-signs"),
        .bloodPressureSystolic: Code("8480-6", "Systolic blood pressure", "mmHg", "mm[Hg]", "vital-signs"),
        .bloodPressureDiastolic: Code("8462-4", "Diastolic blood pressure", "mmHg", "mm[Hg]", "vital-signs"),
        .bodyFatPercentage: Code("41982-0", "Percentage of body fat Measured", "%", "%", "vital-signs"),
        .waistCircumference: Code(
            "8280-0",
            "Waist Circumference at umbilicus by Tape measure",
            "cm",
            "cm",
            "vital-signs"
        ),
        .bloodGlucose: Code("2339-0", "Glucose [Mass/volume] in Blood", "mg/dL", "mg/dL", "laboratory"),
        .stepCount: Code("55423-8", "Number of steps in unspecified time Pedometer", "count", "{steps}", "activity"),
        .activeEnergyBurned: Code("41981-2", "Calories burned", "kcal", "kcal", "activity"),
        .dietaryEnergyConsumed: Code("9052-2", "Calorie intake total", "kcal", "kcal", "activity"),
    ]

    /// The blood pressure panel.
    public static let bloodPressurePanel = (
        loinc: "85354-9", display: "Blood pressure panel with all children optional"
    )
    /// ABO and Rh group.
    public static let bloodType = (loinc: "882-1", display: "ABO and Rh group [Type] in Blood")
    /// Questionnaire totals.
    public static let gad7Total = (loinc: "70274-6", display: "Generalized anxiety disorder 7 item (GAD-7) total score")
    public static let phq9Total = (
        loinc: "44261-6", display: "Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]"
    )
    /// A workout's duration.
    public static let exerciseDuration = (loinc: "55411-3", display: "Exercise duration")
}
