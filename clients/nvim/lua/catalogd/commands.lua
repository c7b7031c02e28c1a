-- :Catalogd {subcommand} [args]: what each subcommand does, and completion.
local sources = require("catalogd.sources")

local M = {}

local function usage(msg)
  require("catalogd").notify(msg, vim.log.levels.ERROR)
end

M.subcommands = {
  quotes = function()
    require("catalogd.quotes").open()
  end,
  products = function(args)
    local query = table.concat(args, " ")
    local q = query ~= "" and { query = query } or nil
    require("catalogd.list").open("products", q, q and ("?query=" .. query) or nil)
  end,
  photos = function(args)
    if #args > 0 then
      return usage("photos takes no arguments")
    end
    require("catalogd.list").open("photos", nil, nil)
  end,
  places = function(args)
    local category, x, y = args[1], args[2], args[3]
    if not category or #args == 2 or #args > 3 then
      return usage("usage: :Catalogd places {category} [x y], e.g. :Catalogd places CE7 126.978 37.5665")
    end
    local center = require("catalogd.config").options.places_center
    local lon, lat = tonumber(x or center[1]), tonumber(y or center[2])
    if not lon or not lat then
      return usage("x and y are a longitude and a latitude in degrees, e.g. 126.978 37.5665")
    end
    -- The category is checked by the daemon, whose message says what it takes.
    local query = { category = category:upper(), x = lon, y = lat, sort = "distance" }
    require("catalogd.list").open("places", query, ("/%s?x=%s&y=%s"):format(query.category, lon, lat))
  end,
}

function M.run(fargs)
  local name = fargs[1]
  local run = name and M.subcommands[name]
  if not run then
    return usage(
      ("unknown subcommand %s; try quotes, products [query], photos, places {category} [x y]"):format(
        name and ("'" .. name .. "'") or "(none)"
      )
    )
  end
  run(vim.list_slice(fargs, 2))
end

local function matching(list, prefix)
  local out = {}
  for _, item in ipairs(list) do
    if vim.startswith(item, prefix) then
      out[#out + 1] = item
    end
  end
  return out
end

function M.complete(arglead, cmdline, _)
  local words = vim.split(cmdline, "%s+")
  -- words[1] is the command; the word being completed is the last one.
  local n = #words - 1
  if n <= 1 then
    local names = vim.tbl_keys(M.subcommands)
    table.sort(names)
    return matching(names, arglead)
  end
  if words[2] == "places" and n == 2 then
    return matching(sources.place_categories, arglead:upper())
  end
  return {}
end

return M
