// pcsc-lite (PC/SC), as Swift sees it. pkg-config adds -I/usr/include/PCSC.
#pragma once
#include <winscard.h>
#include <reader.h>
