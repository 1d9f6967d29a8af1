public import Foundation

/// A questionnaire's result at one moment: its answers and the score they give (HealthKit's
/// `HKScoredAssessment`). The score and the risk are computed from the answers, never taken
/// from input.
public protocol ScoredAssessment: HealthSample {
    /// Which questionnaire this is.
    static var assessmentType: ScoredAssessmentTypeIdentifier { get }
    /// The questionnaire's total score.
    var score: Int { get }
}

extension ScoredAssessment {
    public var sampleType: SampleType { .scoredAssessment(Self.assessmentType) }
    /// When the questionnaire was answered.
    public var date: Date { startDate }
}

/// A GAD-7 (generalized anxiety disorder) questionnaire's result, as HealthKit's
/// `HKGAD7Assessment`: seven answers, each 0 to 3; the score is their sum (0 to 21) and the risk
/// follows from the score.
public struct GAD7Assessment: ScoredAssessment {
    public static let assessmentType = ScoredAssessmentTypeIdentifier.gad7
    /// The number of questions, and so of answers.
    public static let questionCount = 7

    public let uuid: UUID
    /// One answer per question, in the questionnaire's order.
    public let answers: [Answer]
    public let startDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// Creates an assessment answered at `date`, or throws `invalidArgument`: not exactly seven
    /// answers, bad metadata, or a date outside the years 0000-9999.
    public init(
        uuid: UUID = .forNewObject(),
        date: Date,
        answers: [Answer],
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: date, endDate: date, sourceRevision: sourceRevision, metadata: metadata)
        try checkAnswerCount(answers.count, Self.questionCount, "GAD-7")
        self.uuid = uuid
        self.answers = answers
        self.startDate = date
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    public var endDate: Date { startDate }

    /// The sum of the answers, 0 to 21.
    public var score: Int { answers.reduce(0) { $0 + $1.rawValue } }

    /// The anxiety risk the score falls in.
    public var risk: Risk { Risk(score: score) }

    public func attributed(to sourceRevision: SourceRevision) -> GAD7Assessment {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    public init(from decoder: any Decoder) throws {
        let (common, answers) = try decodeAssessment(decoder, type: Self.assessmentType)
        let parsed = try validating(decoder) { () throws(HealthError) in
            try checkAnswerCount(answers.count, Self.questionCount, "GAD-7")
            return try answers.enumerated().map { (index, raw) throws(HealthError) -> Answer in
                guard let answer = Answer(rawValue: raw) else {
                    throw .invalidArgument(
                        "a GAD-7 answer is 0 to 3 (\(Answer.healthKitName))",
                        field: "answers[\(index)]"
                    )
                }
                return answer
            }
        }
        self = try validating(decoder) { () throws(HealthError) in
            let assessment = try GAD7Assessment(
                uuid: common.uuid,
                date: common.start,
                answers: parsed,
                sourceRevision: common.source,
                device: common.device,
                metadata: common.metadata
            )
            try checkDerived(common, score: assessment.score, risk: assessment.risk.rawValue, end: common.end)
            return assessment
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeAssessment(self, answers: answers.map(\.rawValue), risk: risk.rawValue, to: encoder)
    }

    /// An answer to one question (`HKGAD7Assessment.Answer`).
    public enum Answer: Int, HealthKitEnumeration {
        case notAtAll = 0
        case severalDays = 1
        case moreThanHalfTheDays = 2
        case nearlyEveryDay = 3

        public static let healthKitName = "HKGAD7AssessmentAnswer"
        public var healthKitConstant: String { constantFromCaseName }
    }

    /// The anxiety risk a score falls in (`HKGAD7Assessment.Risk`): 0-4 none to minimal, 5-9 mild,
    /// 10-14 moderate, 15-21 severe.
    public enum Risk: Int, HealthKitEnumeration {
        case noneToMinimal = 1
        case mild = 2
        case moderate = 3
        case severe = 4

        public static let healthKitName = "HKGAD7AssessmentRisk"
        public var healthKitConstant: String { constantFromCaseName }

        /// The risk of a score.
        public init(score: Int) {
            switch score {
            case ..<5: self = .noneToMinimal
            case ..<10: self = .mild
            case ..<15: self = .moderate
            default: self = .severe
            }
        }
    }
}

/// A PHQ-9 (patient health questionnaire) result, as HealthKit's `HKPHQ9Assessment`: nine
/// answers, the first eight 0 to 3, the ninth 0 to 3 or 4 (prefer not to answer); the score is
/// their sum with a ninth answer of 4 counted as 0 (0 to 27), and the risk follows from the score.
public struct PHQ9Assessment: ScoredAssessment {
    public static let assessmentType = ScoredAssessmentTypeIdentifier.phq9
    /// The number of questions, and so of answers.
    public static let questionCount = 9

    public let uuid: UUID
    /// One answer per question, in the questionnaire's order.
    public let answers: [Answer]
    public let startDate: Date
    public private(set) var sourceRevision: SourceRevision
    public let device: Device?
    public let metadata: Metadata

    /// Creates an assessment answered at `date`, or throws `invalidArgument`: not exactly nine
    /// answers, `preferNotToAnswer` to a question other than the ninth, bad metadata, or a date
    /// outside the years 0000-9999.
    public init(
        uuid: UUID = .forNewObject(),
        date: Date,
        answers: [Answer],
        sourceRevision: SourceRevision,
        device: Device? = nil,
        metadata: Metadata = [:]
    ) throws(HealthError) {
        try validateCommon(startDate: date, endDate: date, sourceRevision: sourceRevision, metadata: metadata)
        try checkAnswerCount(answers.count, Self.questionCount, "PHQ-9")
        if let index = answers.dropLast().firstIndex(of: .preferNotToAnswer) {
            throw .invalidArgument(
                "only the ninth PHQ-9 question may be left unanswered (preferNotToAnswer, 4)",
                field: "answers[\(index)]"
            )
        }
        self.uuid = uuid
        self.answers = answers
        self.startDate = date
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    public var endDate: Date { startDate }

    /// The sum of the answers, a ninth answer of `preferNotToAnswer` counted as 0: 0 to 27.
    public var score: Int {
        answers.reduce(0) { $0 + ($1 == .preferNotToAnswer ? 0 : $1.rawValue) }
    }

    /// The depression risk the score falls in.
    public var risk: Risk { Risk(score: score) }

    public func attributed(to sourceRevision: SourceRevision) -> PHQ9Assessment {
        var copy = self
        copy.sourceRevision = sourceRevision
        return copy
    }

    public init(from decoder: any Decoder) throws {
        let (common, answers) = try decodeAssessment(decoder, type: Self.assessmentType)
        let parsed = try validating(decoder) { () throws(HealthError) in
            try checkAnswerCount(answers.count, Self.questionCount, "PHQ-9")
            return try answers.enumerated().map { (index, raw) throws(HealthError) -> Answer in
                let last = index == Self.questionCount - 1
                guard let answer = Answer(rawValue: raw), last || answer != .preferNotToAnswer else {
                    throw .invalidArgument(
                        last
                            ? "the ninth PHQ-9 answer is 0 to 3, or 4 (prefer not to answer)"
                            : "a PHQ-9 answer to questions 1 to 8 is 0 to 3",
                        field: "answers[\(index)]"
                    )
                }
                return answer
            }
        }
        self = try validating(decoder) { () throws(HealthError) in
            let assessment = try PHQ9Assessment(
                uuid: common.uuid,
                date: common.start,
                answers: parsed,
                sourceRevision: common.source,
                device: common.device,
                metadata: common.metadata
            )
            try checkDerived(common, score: assessment.score, risk: assessment.risk.rawValue, end: common.end)
            return assessment
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeAssessment(self, answers: answers.map(\.rawValue), risk: risk.rawValue, to: encoder)
    }

    /// An answer to one question (`HKPHQ9Assessment.Answer`).
    public enum Answer: Int, HealthKitEnumeration {
        case notAtAll = 0
        case severalDays = 1
        case moreThanHalfTheDays = 2
        case nearlyEveryDay = 3
        /// Only for the ninth question.
        case preferNotToAnswer = 4

        public static let healthKitName = "HKPHQ9AssessmentAnswer"
        public var healthKitConstant: String { constantFromCaseName }
    }

    /// The depression risk a score falls in (`HKPHQ9Assessment.Risk`): 0-4 none to minimal,
    /// 5-9 mild, 10-14 moderate, 15-19 moderately severe, 20-27 severe.
    public enum Risk: Int, HealthKitEnumeration {
        case noneToMinimal = 1
        case mild = 2
        case moderate = 3
        case moderatelySevere = 4
        case severe = 5

        public static let healthKitName = "HKPHQ9AssessmentRisk"
        public var healthKitConstant: String { constantFromCaseName }

        /// The risk of a score.
        public init(score: Int) {
            switch score {
            case ..<5: self = .noneToMinimal
            case ..<10: self = .mild
            case ..<15: self = .moderate
            case ..<20: self = .moderatelySevere
            default: self = .severe
            }
        }
    }
}

// MARK: - JSON

/// The fields of an assessment's JSON form beyond those every sample has.
private enum AssessmentCodingKeys: String, CodingKey {
    case answers, score, risk
}

/// What an assessment's JSON holds besides its answers, as sent.
private struct AssessmentCommon {
    let uuid: UUID
    let start: Date
    let end: Date
    let source: SourceRevision
    let device: Device?
    let metadata: Metadata
    let score: Int?
    let risk: Int?
}

private func checkAnswerCount(_ count: Int, _ expected: Int, _ name: String) throws(HealthError) {
    guard count == expected else {
        throw .invalidArgument(
            "a \(name) assessment has exactly \(expected) answers, one per question",
            field: "answers"
        )
    }
}

private func decodeAssessment(
    _ decoder: any Decoder,
    type: ScoredAssessmentTypeIdentifier
) throws -> (AssessmentCommon, [Int]) {
    let common = try decoder.container(keyedBy: SampleCodingKeys.self)
    guard try common.decode(SampleType.self, forKey: .type) == .scoredAssessment(type) else {
        throw HealthError.invalidArgument("expected \(type.rawValue)")
            .field(at: decoder.codingPath + [SampleCodingKeys.type])
    }
    let (uuid, start, end, source, device, metadata) = try common.decodeCommon()
    let container = try decoder.container(keyedBy: AssessmentCodingKeys.self)
    return (
        AssessmentCommon(
            uuid: uuid,
            start: start,
            end: end,
            source: source,
            device: device,
            metadata: metadata,
            score: try container.decodeIfPresent(Int.self, forKey: .score),
            risk: try container.decodeIfPresent(Int.self, forKey: .risk)
        ),
        try container.decode([Int].self, forKey: .answers)
    )
}

/// The score and risk are computed from the answers; when sent, they must say the same.
private func checkDerived(_ common: AssessmentCommon, score: Int, risk: Int, end: Date) throws(HealthError) {
    try HealthError.checkInstant(start: common.start, end: end, kind: "an assessment")
    if let sent = common.score, sent != score {
        throw .invalidArgument("the score is the sum of the answers and does not match them", field: "score")
    }
    if let sent = common.risk, sent != risk {
        throw .invalidArgument("the risk follows from the score and does not match it", field: "risk")
    }
}

private func encodeAssessment(
    _ assessment: some ScoredAssessment,
    answers: [Int],
    risk: Int,
    to encoder: any Encoder
) throws {
    var common = encoder.container(keyedBy: SampleCodingKeys.self)
    try common.encodeCommon(assessment)
    var container = encoder.container(keyedBy: AssessmentCodingKeys.self)
    try container.encode(answers, forKey: .answers)
    try container.encode(assessment.score, forKey: .score)
    try container.encode(risk, forKey: .risk)
}
