#ifndef HEALTHVAULT_CSODIUM_SHIM_H
#define HEALTHVAULT_CSODIUM_SHIM_H
#include <sodium.h>
#endif
