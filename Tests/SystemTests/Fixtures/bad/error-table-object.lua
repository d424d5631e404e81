-- error: error-table-object.lua:2: (error object is a table value)
error({ code = 1 })
