// libnfc, as Swift sees it. Only LibNFC (Sources/LibNFC) imports this module.
#pragma once
#include <nfc/nfc.h>
