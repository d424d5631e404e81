import CSndfile

/// libsndfile's functions, opened with dlopen the first time a routine names a file
/// (CSndfile/shim.h says why it is not linked); nil where libsndfile1 is not installed.
let sndfileLibrary: workout_sndfile? = {
    var api = workout_sndfile()
    return workout_sndfile_open(&api) == 0 ? api : nil
}()
