/* collectors/emu/fiber.h: switching between the emulator's coroutines (one
 * per CUDA thread of a CTA with barriers) and its scheduler, told to
 * AddressSanitizer.
 *
 * ASan cannot follow a swapcontext by itself: it intercepts the call,
 * prints "WARNING: ASan doesn't fully support makecontext/swapcontext"
 * once in every process (no ASAN_OPTIONS flag silences it: detect_stack_
 * use_after_return=0 does not) and may report false positives.  Under ASan
 * each switch is announced through the fiber interface instead
 * (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber, which
 * tell it the stack being entered) and made with libc's own swapcontext,
 * so ASan knows every stack and has nothing to warn about.  Without ASan
 * these are plain swapcontext calls. */
#ifndef WS_EMU_FIBER_H
#define WS_EMU_FIBER_H

#include <stddef.h>
#include <ucontext.h>

/* The stack a switch enters: its lowest address and size. */
typedef struct fiber_stack {
    const void *bottom;
    size_t size;
} fiber_stack;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EMU_FIBER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define EMU_FIBER_ASAN 1
#endif

#ifdef EMU_FIBER_ASAN
#include <dlfcn.h>
#include <sanitizer/common_interface_defs.h>

typedef int (*swapcontext_fn)(ucontext_t *, const ucontext_t *);

/* libc's swapcontext, past ASan's interceptor of the same name. */
static inline swapcontext_fn fiber_libc_swapcontext(void)
{
    static swapcontext_fn real;
    if (!real) {
        void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
        real = libc ? (swapcontext_fn)dlsym(libc, "swapcontext") : NULL;
        if (!real)
            real = swapcontext; /* the interceptor: a warning, still correct */
    }
    return real;
}

static inline void fiber_switch(ucontext_t *from, ucontext_t *to, fiber_stack to_stack)
{
    void *fake_stack = NULL;
    __sanitizer_start_switch_fiber(&fake_stack, to_stack.bottom, to_stack.size);
    fiber_libc_swapcontext()(from, to);
    __sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
}

/* First thing in a coroutine: finishes the switch into it and records the
 * stack it came from (the scheduler's), where it switches back to. */
static inline void fiber_entered(fiber_stack *from)
{
    __sanitizer_finish_switch_fiber(NULL, &from->bottom, &from->size);
}

/* Last thing before a coroutine returns to its uc_link: its stack ends. */
static inline void fiber_exiting(fiber_stack to)
{
    __sanitizer_start_switch_fiber(NULL, to.bottom, to.size);
}
#else
static inline void fiber_switch(ucontext_t *from, ucontext_t *to, fiber_stack to_stack)
{
    (void)to_stack;
    swapcontext(from, to);
}
static inline void fiber_entered(fiber_stack *from) { (void)from; }
static inline void fiber_exiting(fiber_stack to) { (void)to; }
#endif

#endif
