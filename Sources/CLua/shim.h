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

static inline int workout_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int workout_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline void workout_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void workout_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void workout_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *workout_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
static inline int workout_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline void **workout_extraspace(lua_State *L) { return (void **)lua_getextraspace(L); }
static inline int workout_gc_count_kb(lua_State *L) { return lua_gc(L, LUA_GCCOUNT, 0); }
static inline int workout_gc_count_b(lua_State *L) { return lua_gc(L, LUA_GCCOUNTB, 0); }

/// A Swift function exposed to Lua. It returns the number of results, or -1 after
/// pushing an error message: the trampoline then raises it from C.
typedef int (*workout_SwiftFunction)(lua_State *L);

static int workout_trampoline(lua_State *L) {
    workout_SwiftFunction f = (workout_SwiftFunction)lua_touserdata(L, lua_upvalueindex(1));
    int n = f(L);
    if (n < 0) return lua_error(L);
    return n;
}

static inline void workout_pushswiftfunction(lua_State *L, workout_SwiftFunction f) {
    lua_pushlightuserdata(L, (void *)f);
    lua_pushcclosure(L, workout_trampoline, 1);
}

/// Message handler for lua_pcall: appends Lua's traceback to the error message.
static int workout_msgh(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
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

/// Loads a chunk in text mode only: binary chunks are refused.
static inline int workout_loadtext(lua_State *L, const char *buf, size_t len, const char *chunkname) {
    return luaL_loadbufferx(L, buf, len, chunkname, "t");
}

#endif
