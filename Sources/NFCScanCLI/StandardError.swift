#if canImport(Glibc)
import Glibc
#endif
import CommandLineIO

/// One line on standard error.
func printError(_ line: String) { writeLine(line, to: .error) }

/// libnfc prints its own errors ("error libnfc.driver.pn532_uart …") to standard error; a person
/// gets nfcscan's sentence instead. --verbose (or LIBNFC_LOG_LEVEL set by the user) keeps them.
func quietLibnfc(unless verbose: Bool) {
    if !verbose { setenv("LIBNFC_LOG_LEVEL", "0", 0) }
}
