// glibc's libintl (gettext), which Swift's Glibc module leaves out; no library to link: it is part
// of libc. Only Sources/NFCCopy/Gettext.swift imports this module.
#pragma once
#include <libintl.h>

// glibc's count of catalog changes, exported by libc but not declared in libintl.h. Bumping it
// makes glibc forget the translations it has looked up, which it keeps by message and locale name
// but not by LANGUAGE: the GNU gettext manual's "Changing the language at runtime" does the same.
extern int _nl_msg_cat_cntr;

static inline void nfcscan_intl_forget_lookups(void) { ++_nl_msg_cat_cntr; }
