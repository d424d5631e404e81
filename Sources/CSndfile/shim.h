// libsndfile, which decodes the sound files a routine names (WAV, FLAC, Ogg Vorbis, Opus,
// MP3). Header only (Debian's libsndfile1-dev): the library is opened with dlopen when a
// routine names a file, as libpulse is (Sources/CPulse/shim.h), so a machine without it
// runs everything else, and no other command loads its codecs.
#ifndef WORKOUT_SNDFILE_SHIM_H
#define WORKOUT_SNDFILE_SHIM_H

#include <dlfcn.h>
#include <fcntl.h>
#include <sndfile.h>

/// The functions the decoder calls, without their `sf_` prefix.
#define WORKOUT_SNDFILE_FUNCTIONS(X) \
    X(open_fd) \
    X(readf_float) \
    X(close) \
    X(strerror)

/// libsndfile's functions, each `sf_NAME` as the field `NAME`.
struct workout_sndfile {
#define WORKOUT_SNDFILE_FIELD(name) __typeof__(&sf_##name) name;
    WORKOUT_SNDFILE_FUNCTIONS(WORKOUT_SNDFILE_FIELD)
#undef WORKOUT_SNDFILE_FIELD
};

/// Opens libsndfile.so.1 and fills `api`: 0, or -1 where the library or one of the
/// functions is missing. The library stays loaded.
static inline int workout_sndfile_open(struct workout_sndfile *api) {
    void *library = dlopen("libsndfile.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
    int missing = 0;
#define WORKOUT_SNDFILE_LOOKUP(name) \
    api->name = (__typeof__(&sf_##name))dlsym(library, "sf_" #name); \
    if (api->name == NULL) missing = 1;
    WORKOUT_SNDFILE_FUNCTIONS(WORKOUT_SNDFILE_LOOKUP)
#undef WORKOUT_SNDFILE_LOOKUP
    return missing ? -1 : 0;
}

#endif
