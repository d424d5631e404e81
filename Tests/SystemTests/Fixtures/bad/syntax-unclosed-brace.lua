-- error: syntax-unclosed-brace.lua:4: '}' expected (to close '{' at line 2) near <eof>
return workout { name = "x", work(20)

