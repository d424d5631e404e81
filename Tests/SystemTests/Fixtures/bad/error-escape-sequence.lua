-- error: error-escape-sequence.lua:2: \27]0;pwned\7
error("\27]0;pwned\7")
