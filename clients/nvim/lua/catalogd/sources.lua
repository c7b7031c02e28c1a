-- What each list shows: an item's line (with its highlights) and its detail.
local M = {}

local function isnil(v)
  return v == nil or v == vim.NIL
end

local function width(s)
  return vim.fn.strdisplaywidth(s)
end

local function pad_left(s, w)
  return string.rep(" ", math.max(0, w - width(s))) .. s
end

local function pad_right(s, w)
  return s .. string.rep(" ", math.max(0, w - width(s)))
end

--- 18900 -> "18,900"
function M.thousands(n)
  local s = tostring(math.floor(tonumber(n) or 0))
  local sign, digits = s:match("^(-?)(%d+)$")
  if not digits then
    return s
  end
  digits = digits:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
  return sign .. digits
end

-- A line built from pieces, each with its highlight group (or nil).
local function build(pieces)
  local text, highlights = "", {}
  for _, piece in ipairs(pieces) do
    local s, group = piece[1], piece[2]
    if s ~= "" then
      if group then
        highlights[#highlights + 1] = { group, #text, #text + #s }
      end
      text = text .. s
    end
  end
  return text, highlights
end

-- Field lines of a detail buffer: "name: value".
local function fields(list)
  local lines = {}
  for _, f in ipairs(list) do
    local value = f[2]
    if isnil(value) then
      value = "—"
    end
    lines[#lines + 1] = f[1] .. ": " .. tostring(value)
  end
  return lines
end

M.products = {
  title = "products",
  format = function(p)
    return build({
      { pad_left("₩" .. M.thousands(p.price), 12), "CatalogdPrice" },
      { "  " .. pad_right(p.nameKo or "", 28) },
      { isnil(p.nameEn) and "" or ("  " .. p.nameEn), "CatalogdSecondary" },
      { "  #" .. p.id, "CatalogdId" },
    })
  end,
  detail = function(p, callback)
    require("catalogd").request("products/get", { id = p.id }, function(err, product)
      if err then
        return callback(err)
      end
      local supplier = product.supplier
      callback(nil, {
        title = "Product " .. product.id,
        lines = fields({
          { "id", product.id },
          { "nameKo", product.nameKo },
          { "nameEn", product.nameEn },
          { "price", M.thousands(product.price) .. " won" },
          { "supplier", isnil(supplier) and vim.NIL or (supplier.name .. " (" .. supplier.id .. ")") },
          { "createdAt", product.createdAt },
          { "updatedAt", product.updatedAt },
          { "version", product.version },
        }),
      })
    end)
  end,
}

M.photos = {
  title = "photos",
  format = function(p)
    local size = isnil(p.bytes) and "" or ("  " .. M.thousands(math.ceil(p.bytes / 1024)) .. " KiB")
    return build({
      { pad_right(isnil(p.author) and "(unknown author)" or p.author, 24) },
      { "  " .. pad_left(p.width .. "×" .. p.height, 11) .. size, "CatalogdSecondary" },
      { "  #" .. p.id, "CatalogdId" },
    })
  end,
  detail = function(p, callback)
    require("catalogd").request("photos/image", { id = p.id }, function(err, image)
      if err then
        return callback(err)
      end
      callback(nil, {
        title = "Photo " .. p.id,
        lines = fields({
          { "id", p.id },
          { "author", p.author },
          { "size", p.width .. "×" .. p.height },
          { "bytes", image.bytes },
          { "contentType", image.contentType },
          { "path", image.path },
          { "url", p.url },
          { "pageUrl", p.pageUrl },
        }),
        path = image.path,
      })
    end)
  end,
}

M.places = {
  title = "places",
  format = function(p)
    local distance = isnil(p.distance) and "" or (M.thousands(p.distance) .. " m")
    local address = (not isnil(p.roadAddressName) and p.roadAddressName ~= "") and p.roadAddressName or p.addressName
    return build({
      { pad_left(distance, 9), "CatalogdDistance" },
      { "  " .. pad_right(p.placeName or "", 30) },
      { "  " .. (address or ""), "CatalogdSecondary" },
      { "  #" .. p.id, "CatalogdId" },
    })
  end,
  detail = function(p, callback)
    require("catalogd").request("places/get", { id = p.id }, function(err, place)
      if err then
        return callback(err)
      end
      callback(nil, {
        title = place.placeName,
        lines = fields({
          { "id", place.id },
          { "placeName", place.placeName },
          { "category", place.categoryName },
          { "phone", place.phone ~= "" and place.phone or vim.NIL },
          { "address", place.addressName },
          { "roadAddress", place.roadAddressName ~= "" and place.roadAddressName or vim.NIL },
          { "distance", isnil(p.distance) and vim.NIL or (p.distance .. " m") },
          { "position", ("%.7f, %.7f"):format(place.x, place.y) },
          { "placeUrl", place.placeUrl ~= "" and place.placeUrl or vim.NIL },
        }),
      })
    end)
  end,
}

-- The category group codes of `:Catalogd places` (Kakao Local's).
M.place_categories = {
  "MT1", "CS2", "PS3", "SC4", "AC5", "PK6", "OL7", "SW8", "BK9",
  "CT1", "AG2", "PO3", "AT4", "AD5", "FD6", "CE7", "HP8", "PM9",
}

return M
