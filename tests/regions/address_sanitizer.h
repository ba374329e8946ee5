/* UNDER_ADDRESS_SANITIZER, defined when built with AddressSanitizer (GCC's __SANITIZE_ADDRESS__,
 * clang's __has_feature): the test programs that fork() beside running threads skip what its
 * allocator, which takes no lock around fork(), can hang on. */
#ifndef LARM_TESTS_ADDRESS_SANITIZER_H
#define LARM_TESTS_ADDRESS_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ADDRESS_SANITIZER 1
#endif
#endif

#endif
