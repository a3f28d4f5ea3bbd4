import Authenticity
import LibCrypto
import Testing

@Suite struct OpenSSLTests {
    @Test func links() { _ = OpenSSL() }
}
