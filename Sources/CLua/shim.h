// Swift cannot import Lua's function-like macros, LUA_REGISTRYINDEX or the variadic
// error helpers, so they are re-declared here as static inline functions. This header
// also holds the C trampoline through which a Swift function exposed to Lua raises an
// error: Swift never calls lua_error itself, so a Lua error never longjmps across a
// Swift frame.
#ifndef WORKOUT_CLUA_SHIM_H
#define WORKOUT_CLUA_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// The chunk name of the engine's own Lua glue (print, load, require, setmetatable).
#define WORKOUT_PRELUDE_NAME "=[workout prelude]"

/// Pushes "file:line: " for the innermost frame of the routine's own code, skipping the
/// prelude's helpers and C functions: an error raised inside `print` names the line that
/// called `print`. Pushes "" when no such frame is left (a tail call removes frames).
static void workout_where(lua_State *L) {
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar)) break;
        if (ar.currentline > 0 && strcmp(ar.source, WORKOUT_PRELUDE_NAME) != 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

static inline int workout_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void workout_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void workout_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void workout_newtable(lua_State *L) { lua_newtable(L); }
static inline int workout_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}

/// What the engine keeps per Lua state: the Swift owner, and the limits a routine runs
/// under. Its address sits in the state's extra space (shared by coroutines) and is the
/// allocator's user data.
typedef struct workout_context {
    void *owner;
    /// Instructions left for the running call; the count hook stops it below zero.
    long long budget;
    /// CLOCK_MONOTONIC nanoseconds by which the running call must end (0: no limit), and
    /// that limit in seconds for the message. Instructions are not all equally cheap (a
    /// concatenation may copy megabytes), so time is the backstop of the budget.
    long long deadline;
    double seconds;
    /// Bytes Lua holds now, and the most it may hold (0: no cap).
    size_t used;
    size_t limit;
    /// The cap applies only while Lua code runs, never while Swift pushes values, so an
    /// allocation failure is always raised inside a protected call.
    int enforce;
    /// The limit the running call has reached (a `workout_limit`; 0 none). Once set, every
    /// further instruction of the call raises the same error, so a `pcall` or a coroutine
    /// that catches it cannot go on; the engine clears it when the call is back.
    int tripped;
    /// Set by a signal handler when the user asks to stop (Ctrl-C, SIGTERM): the running
    /// call stops at its next check, like a reached limit. NULL: never.
    volatile int *interrupt;
} workout_context;

/// What stopped a call, in `workout_context.tripped`.
enum workout_limit {
    WORKOUT_LIMIT_NONE = 0,
    WORKOUT_LIMIT_INSTRUCTIONS = 1,
    WORKOUT_LIMIT_TIME = 2,
    WORKOUT_LIMIT_MEMORY = 3,
    WORKOUT_LIMIT_INTERRUPTED = 4,
};

static inline workout_context *workout_getcontext(lua_State *L) {
    return *(workout_context **)lua_getextraspace(L);
}

static void *workout_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    workout_context *context = (workout_context *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        context->used -= old;
        return NULL;
    }
    if (context->enforce && context->limit && nsize > old && context->used - old + nsize > context->limit)
        return NULL;
    void *block = realloc(ptr, nsize);
    if (block) context->used = context->used - old + nsize;
    return block;
}

enum { WORKOUT_HOOK_EVERY = 1000 };

/// The memory the count hook treats as full: a sixteenth below the cap, so that a
/// Lua loop filling memory is stopped by the hook, with its line, before the allocator
/// has to refuse (an allocator refusal carries no line).
static inline size_t workout_soft_limit(const workout_context *context) {
    return context->limit - context->limit / 16;
}

static void workout_count_hook(lua_State *L, lua_Debug *ar);

/// Raises the error of the limit the call has reached, at the routine's line, and makes
/// this thread's hook run before every instruction: whatever catches the error, the next
/// instruction raises it again, until the engine has the call back.
static void workout_raise_limit(lua_State *L, workout_context *context) {
    if (lua_gethookcount(L) != 1) lua_sethook(L, workout_count_hook, LUA_MASKCOUNT, 1);
    workout_where(L);
    switch (context->tripped) {
    case WORKOUT_LIMIT_INSTRUCTIONS:
        lua_pushstring(L, "instruction limit reached (an endless loop?)");
        break;
    case WORKOUT_LIMIT_TIME:
        /* Lua's %f writes 20.0 for a whole number: write whole seconds as integers. */
        if (context->seconds == (double)(long long)context->seconds)
            lua_pushfstring(L, "time limit of %I s reached (an endless loop?)", (lua_Integer)context->seconds);
        else
            lua_pushfstring(L, "time limit of %f s reached (an endless loop?)", context->seconds);
        break;
    case WORKOUT_LIMIT_MEMORY:
        lua_pushfstring(L, "memory limit of %d MiB reached", (int)(context->limit / (1024 * 1024)));
        break;
    default:
        lua_pushstring(L, "interrupted");
        break;
    }
    lua_concat(L, 2);
    lua_error(L);
}

/// Runs every WORKOUT_HOOK_EVERY instructions: an endless loop or a Lua loop that fills
/// memory ends with an error naming the line it was on, and so does running Lua when
/// the user interrupts.
static void workout_count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    workout_context *context = workout_getcontext(L);
    if (context->tripped) workout_raise_limit(L, context);
    int every = lua_gethookcount(L);
    if (every != WORKOUT_HOOK_EVERY) {
        /* A coroutine left running every instruction by an earlier call's limit. */
        lua_sethook(L, workout_count_hook, LUA_MASKCOUNT, WORKOUT_HOOK_EVERY);
    }
    context->budget -= every;
    if (context->interrupt && *context->interrupt) {
        context->tripped = WORKOUT_LIMIT_INTERRUPTED;
        workout_raise_limit(L, context);
    }
    if (context->budget < 0) {
        context->tripped = WORKOUT_LIMIT_INSTRUCTIONS;
        workout_raise_limit(L, context);
    }
    if (context->deadline) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((long long)now.tv_sec * 1000000000LL + now.tv_nsec > context->deadline) {
            context->tripped = WORKOUT_LIMIT_TIME;
            workout_raise_limit(L, context);
        }
    }
    if (context->enforce && context->limit && context->used > workout_soft_limit(context)) {
        /* Garbage counts too: collect before deciding the state is full. */
        lua_gc(L, LUA_GCCOLLECT);
        if (context->used > workout_soft_limit(context)) {
            context->tripped = WORKOUT_LIMIT_MEMORY;
            workout_raise_limit(L, context);
        }
    }
}

/// After a call that reached a limit: the main thread's hook back to its usual pace.
static inline void workout_resethook(lua_State *L) {
    lua_sethook(L, workout_count_hook, LUA_MASKCOUNT, WORKOUT_HOOK_EVERY);
}

static inline lua_State *workout_newstate(workout_context *context) {
    lua_State *L = lua_newstate(workout_alloc, context);
    if (L == NULL) return NULL;
    *(workout_context **)lua_getextraspace(L) = context;
    lua_sethook(L, workout_count_hook, LUA_MASKCOUNT, WORKOUT_HOOK_EVERY);
    return L;
}

/// A Swift function exposed to Lua. It returns the number of results, or -1 after
/// pushing an error message: the trampoline then raises it from C.
typedef int (*workout_SwiftFunction)(lua_State *L);

/// The memory cap is lifted while the Swift function runs: a refused allocation would
/// raise from inside a Swift frame. What Swift allocates still counts, and the count
/// hook stops the routine at its next check.
static int workout_trampoline(lua_State *L) {
    workout_SwiftFunction f = (workout_SwiftFunction)lua_touserdata(L, lua_upvalueindex(1));
    workout_context *context = workout_getcontext(L);
    int enforce = context->enforce;
    context->enforce = 0;
    int n = f(L);
    context->enforce = enforce;
    if (n < 0) return lua_error(L);
    return n;
}

static inline void workout_pushswiftfunction(lua_State *L, workout_SwiftFunction f) {
    lua_pushlightuserdata(L, (void *)f);
    lua_pushcclosure(L, workout_trampoline, 1);
}

/// Whether an error message starts with a position, `file.lua:12: ` (or a loaded
/// chunk's `[string "…"]:3: `), as Lua's own errors and `error("x")` do.
static int workout_has_position(const char *msg) {
    const char *colon = msg[0] == '[' ? strstr(msg, "]:") : strchr(msg, ':');
    if (colon == NULL || colon == msg) return 0;
    if (msg[0] == '[') colon++;
    for (const char *p = msg; p < colon; p++)
        if ((*p == ' ' || *p == '\n') && msg[0] != '[') return 0;
    const char *p = colon + 1;
    if (*p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') p++;
    return *p == ':';
}

/// Message handler for lua_pcall: appends Lua's traceback to the error message. An
/// error raised inside the prelude's helpers (`setmetatable(1, {})`) is moved to the
/// routine's line that called them; one without a position (`error(nil)`, a table,
/// `error("x", 3)`, a yield outside a coroutine) gets the routine's line.
static int workout_msgh(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    } else if (strncmp(msg, WORKOUT_PRELUDE_NAME + 1, strlen(WORKOUT_PRELUDE_NAME) - 1) == 0) {
        const char *rest = strstr(msg + strlen(WORKOUT_PRELUDE_NAME) - 1, ": ");
        if (rest != NULL) {
            workout_where(L);
            lua_pushstring(L, rest + 2);
            lua_concat(L, 2);
            msg = lua_tostring(L, -1);
        }
    }
    if (!workout_has_position(msg)) {
        workout_where(L);
        lua_pushstring(L, msg);
        lua_concat(L, 2);
        msg = lua_tostring(L, -1);
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

static inline void workout_pushmsgh(lua_State *L) { lua_pushcfunction(L, workout_msgh); }

/// Lua calls this only for an error outside any protected call, which the engine never
/// makes on purpose: say what happened instead of aborting silently.
static int workout_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "workout: unprotected Lua error: %s\n", msg ? msg : "(not a string)");
    fflush(stderr);
    abort();
    return 0;
}

static inline void workout_setpanic(lua_State *L) { lua_atpanic(L, workout_panic); }

/// Loads a chunk in text mode only: binary chunks are refused. A leading UTF-8
/// byte-order mark (some Windows editors write one) is skipped, as luaL_loadfile does;
/// Lua's lexer itself takes LF and CRLF line ends alike.
static inline int workout_loadtext(lua_State *L, const char *buf, size_t len, const char *chunkname) {
    if (len >= 3 && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB && (unsigned char)buf[2] == 0xBF) {
        buf += 3;
        len -= 3;
    }
    return luaL_loadbufferx(L, buf, len, chunkname, "t");
}

#endif
