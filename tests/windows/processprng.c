/* A test fixture, never shipped: Wine 8's bcryptprimitives.dll lacks ProcessPrng, which
 * Rust's standard library (and getrandom) call for random bytes on Windows 10 and later.
 * tests/windows/run.sh builds this as bcryptprimitives.dll beside petstore.exe and tells Wine
 * to load it instead of its own. The bytes come from RtlGenRandom, Wine's system source. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom */

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
