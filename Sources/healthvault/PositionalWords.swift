import ArgumentParser

/// Positional arguments where a negative number may stand (`samples add weight -5 kg`,
/// `requests approve -3`). ArgumentParser reads a word that begins with `-` as an option, and a
/// single `@Argument` has no parsing strategy to say otherwise (an option's value has
/// `.unconditional`: `goals --move -5`). So these commands collect their positional words with
/// `@Argument(parsing: .allUnrecognized)`, which hands over, in order, every word no option
/// took, and check them here as ArgumentParser would have: a word that looks like an option but
/// is no number is an unknown option, and missing or extra words are said with the arguments'
/// names. Each refusal is a `ValidationError` (exit 64), as ArgumentParser's own are.
enum PositionalWords {
    /// `-5`, `-72.5`, `-.5`, `-120/80`, `-1e3`: a word that begins with `-` and a digit (or a
    /// point and a digit), which no option of these commands is.
    static func isNegativeNumber(_ word: String) -> Bool {
        let characters = Array(word)
        guard characters.count >= 2, characters[0] == "-" else { return false }
        if characters[1].isASCII, characters[1].isNumber { return true }
        return characters.count >= 3 && characters[1] == "." && characters[2].isASCII && characters[2].isNumber
    }

    /// The words of `names` (`<value>`, `[<unit>]`: the optional ones after the required), each
    /// nil when it was left out. `--` (which ends the options) is passed over.
    static func read(_ words: [String], names: [String]) throws -> [String?] {
        var values: [String] = []
        for word in words where word != "--" {
            if word.hasPrefix("-"), word.count > 1, !isNegativeNumber(word) {
                throw ValidationError("Unknown option '\(word)'")
            }
            values.append(word)
        }
        let required = names.filter { !$0.hasPrefix("[") }
        if values.count < required.count {
            throw ValidationError("Missing expected argument '\(required[values.count])'")
        }
        if values.count > names.count {
            throw ValidationError("Unexpected argument '\(values[names.count])'")
        }
        return names.indices.map { values.indices.contains($0) ? values[$0] : nil }
    }
}
