-- error: sandbox-require-self.lua:2: require: "sandbox-require-self" requires itself (a cycle of modules)
require("sandbox-require-self")
return workout { name = "x", work(20) }
