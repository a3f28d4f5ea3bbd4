// glibc's malloc tuning (mallopt), which Swift's Glibc module leaves out; no library to link.
#pragma once
#include <malloc.h>
