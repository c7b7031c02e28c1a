-- Buffer names: `name`, or `name (2)`, `name (3)`… when a buffer has it.
local M = {}

function M.unique(name)
  local candidate, n = name, 1
  while vim.fn.bufexists(candidate) == 1 do
    n = n + 1
    candidate = ("%s (%d)"):format(name, n)
  end
  return candidate
end

return M
