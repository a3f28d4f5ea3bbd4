import CommandLineIO

/// One line on standard error.
func printError(_ line: String) { writeLine(line, to: .error) }
