// nfcsim on its own (development builds and tests; the package links it to nfcscan).
import NFCSimCLI

NFCSimMain.main()
