import Foundation
import HealthModel
import Testing
import VaultCrypto
import VaultEngine

/// The policy file and app manifests in `policies/`: the shipped ones read as intended, and a
/// broken one is refused with the file, the key and the problem.
@Suite struct PolicyFileTests {
    /// `policies/` in this checkout.
    static let policies = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("policies")

    @Test func theShippedDefaultIsTheBuiltInPolicy() throws {
        let url = Self.policies.appendingPathComponent("default.json")
        let policy = try VaultPolicy(contentsOf: url)
        #expect(policy == .standard)
        // And it is written in the canonical form, so the file and the code cannot drift apart.
        #expect(try Data(contentsOf: url) == VaultPolicy.standard.jsonData())
        #expect(policy.neverShared.contains(.characteristic(.dateOfBirth)))
        #expect(policy.explicitDecision.contains(.category(.menstrualFlow)))
    }

    @Test func theShippedManifestsEnrol() async throws {
        let test = try TestEngine()
        let directory = Self.policies.appendingPathComponent("apps")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 2)
        for file in files {
            let manifest = try AppManifest(contentsOf: directory.appendingPathComponent(file))
            #expect(file == manifest.appID + ".json")
            let app = try await test.engine.enroll(manifest: manifest, publicKey: Ed25519.SigningKey().publicKey)
            // A purpose for each access the app declares (the heart strap only shares).
            #expect(app.declaredRead.isEmpty || !app.readPurpose.isEmpty, "\(file)")
            #expect(app.declaredShare.isEmpty || !app.sharePurpose.isEmpty, "\(file)")
        }
        let stepCounter = try await test.engine.grants(of: "org.example.stepcounter")
        #expect(stepCounter.app.declaredShare == [.quantity(.stepCount), .quantity(.heartRate)])
        #expect(stepCounter.grants.map(\.type) == [.quantity(.heartRate), .quantity(.stepCount)])
    }

    /// docs/NAMES.md: a manifest and a policy may name types by short name, alias or identifier,
    /// in any case; the vault keeps the identifiers.
    @Test func manifestsAndPoliciesNameTypesByShortNameToo() async throws {
        let byName = """
            {"version": 1, "appID": "org.example.named", "displayName": "Named", "readPurpose": "why",
             "sharePurpose": "why", "read": ["steps", "heart_rate", "sleepAnalysis", "workout", "activitySummary",
             "bloodType"], "share": ["StepCount", "HKQuantityTypeIdentifierHeartRate", "sleep", "workout"]}
            """
        let manifest = try AppManifest(json: Data(byName.utf8), file: "named.json")
        #expect(
            manifest.read == [
                .quantity(.stepCount), .quantity(.heartRate), .category(.sleepAnalysis), .workout, .activitySummary,
                .characteristic(.bloodType),
            ]
        )
        #expect(manifest.share == [.quantity(.stepCount), .quantity(.heartRate), .category(.sleepAnalysis), .workout])
        let test = try TestEngine()
        let app = try await test.engine.enroll(manifest: manifest, publicKey: Ed25519.SigningKey().publicKey)
        #expect(app.declaredRead == manifest.read)
        let policy = try VaultPolicy(
            json: Data(#"{"version": 1, "neverShared": ["dateOfBirth"], "explicitDecision": ["menstrual_flow"]}"#.utf8),
            file: "named.json"
        )
        #expect(policy.neverShared == [.characteristic(.dateOfBirth)])
        #expect(policy.explicitDecision == [.category(.menstrualFlow)])
        // The canonical form is written with identifiers.
        #expect(String(decoding: policy.jsonData(), as: UTF8.self).contains("HKCategoryTypeIdentifierMenstrualFlow"))
    }

    static let manifest = """
        {"version": 1, "appID": "org.example.app", "displayName": "App", "readPurpose": "why",
         "sharePurpose": "why", "read": ["HKQuantityTypeIdentifierStepCount"], "share": ["HKQuantityTypeIdentifierStepCount"]}
        """

    /// The manifest with one key set to a JSON value (or removed, with nil).
    static func manifest(_ key: String, _ json: String?) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any])
        object[key] = try json.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed) }
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test(
        arguments: [
            ("version", "2", "version", "must be 1"),
            ("version", "true", "version", "must be an integer"),
            ("appID", nil, "appID", "is missing"),
            ("appID", #""not-reverse-dns""#, "appID", "reverse-DNS"),
            ("displayName", "7", "displayName", "must be a string"),
            ("readPurpose", #""""#, "readPurpose", "is required"),
            (
                "read", #"["HKQuantityTypeIdentifierStepCount", "HKNoSuchType"]"#, "read[1]",
                "unknown type \"HKNoSuchType\""
            ),
            ("read", #"["stepCount", "HKQuantityTypeIdentifierStepCount"]"#, "read[1]", "listed twice"),
            ("read", #"["stepCount", "stepcont"]"#, "read[1]", "did you mean stepCount?"),
            (
                "read", #"["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierStepCount"]"#, "read[1]",
                "listed twice"
            ),
            ("share", #"["HKCharacteristicTypeIdentifierBloodType"]"#, "share[0]", "not a sample type"),
            ("share", #"["HKCorrelationTypeIdentifierFood"]"#, "share", "member types"),
            ("publicKey", #""AAAA""#, "publicKey", "32-byte"),
            ("shareTypes", "[]", "shareTypes", "unknown key"),
            ("purposes", #"["steps"]"#, "purposes", "must be an object"),
            ("purposes", #"{"stepCount": ""}"#, "purposes.HKQuantityTypeIdentifierStepCount", "is required"),
            ("purposes", #"{"stepCount": "a\nb"}"#, "purposes.HKQuantityTypeIdentifierStepCount", "control character"),
            ("purposes", #"{"steps": "a", "stepCount": "b"}"#, "purposes.steps", "named twice"),
            ("purposes", #"{"bloodType": "a"}"#, "purposes", "neither reads nor shares"),
            ("purposes", #"{"stepCount": 7}"#, "purposes.stepCount", "must be a string"),
        ] as [(String, String?, String, String)]
    )
    func aBrokenManifestNamesTheFileTheKeyAndTheProblem(
        key: String,
        value: String?,
        path: String,
        problem: String
    ) throws {
        let data = try Self.manifest(key, value)
        #expect(throws: PolicyError.self) { try AppManifest(json: data, file: "policies/apps/org.example.app.json") }
        do {
            _ = try AppManifest(json: data, file: "policies/apps/org.example.app.json")
        } catch {
            #expect(error.file == "policies/apps/org.example.app.json")
            #expect(error.key == path)
            #expect(error.problem.contains(problem), "\(error)")
            #expect("\(error)".hasPrefix("policies/apps/org.example.app.json: \(path): "))
        }
    }

    @Test func aBrokenPolicyNamesTheFileTheKeyAndTheProblem() {
        func problem(_ json: String) -> PolicyError? {
            do {
                _ = try VaultPolicy(json: Data(json.utf8), file: "default.json")
                return nil
            } catch {
                return error
            }
        }
        #expect(problem("[]")?.problem == "must be a JSON object")
        #expect(problem("{\"version\": 1,")?.problem.hasPrefix("is not valid JSON") == true)
        #expect(problem("{\"neverShared\": []}")?.key == "version")
        #expect(problem("{\"version\": 1, \"neverShared\": \"HKWorkoutTypeIdentifier\"}")?.key == "neverShared")
        #expect(
            problem("{\"version\": 1, \"explicitDecision\": [\"HKQuantityTypeIdentifierStepCounts\"]}")?.key
                == "explicitDecision[0]"
        )
        #expect(
            problem("{\"version\": 1, \"neverShared\": [\"HKCorrelationTypeIdentifierBloodPressure\"]}")?.key
                == "neverShared[0]"
        )
        #expect(problem("{\"version\": 1, \"neverShare\": []}")?.key == "neverShare")
        #expect(problem("{\"version\": 1}") == nil)
    }

    @Test func anEnrolmentTheVaultsPolicyForbidsNamesTheManifest() async throws {
        let test = try TestEngine()
        let data = try Self.manifest("share", #"["HKQuantityTypeIdentifierAppleExerciseTime"]"#)
        let manifest = try AppManifest(json: data, file: "org.example.app.json")
        do {
            try await test.engine.enroll(manifest: manifest, publicKey: Ed25519.SigningKey().publicKey)
            Issue.record("enrolled an app declaring a reserved type")
        } catch let error as PolicyError {
            #expect(error.file == "org.example.app.json")
            #expect(error.key == "share")
        }
        // Under a policy that allows it, the same manifest enrols.
        var policy = VaultPolicy.standard
        policy.neverShared.remove(.quantity(.appleExerciseTime))
        try await test.engine.setPolicy(policy)
        #expect(try await test.engine.policy() == policy)
        try await test.engine.enroll(manifest: manifest, publicKey: Ed25519.SigningKey().publicKey)
        // Without a key anywhere, enrolment says what is missing.
        let keyless = try AppManifest(json: try Self.manifest("appID", #""org.example.keyless""#), file: "keyless.json")
        await #expect(throws: PolicyError.self) { try await test.engine.enroll(manifest: keyless) }
    }
}
