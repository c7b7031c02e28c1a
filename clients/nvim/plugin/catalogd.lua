-- catalogd for Neovim: the one global thing is the :Catalogd command; the
-- rest loads on its first use (require("catalogd")).
if vim.g.loaded_catalogd then
  return
end
vim.g.loaded_catalogd = 1

vim.api.nvim_create_user_command("Catalogd", function(opts)
  require("catalogd.commands").run(opts.fargs)
end, {
  nargs = "+",
  desc = "catalogd: quotes, products [query], photos, places {category} [x y]",
  complete = function(arglead, cmdline, pos)
    return require("catalogd.commands").complete(arglead, cmdline, pos)
  end,
})
