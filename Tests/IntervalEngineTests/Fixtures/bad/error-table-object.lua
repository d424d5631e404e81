-- error: error-table-object.lua: (error object is a table value)
error({ code = 1 })
