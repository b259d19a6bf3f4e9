-- mk/handouts.lua - pandoc filter for `make handouts`.
-- The handouts' code blocks carry no language.  A block whose every line is a
-- shell command (a command word, after optional VAR=value settings) or a
-- comment is marked as shell, so pandoc's highlighter shows `# ...` as a
-- comment instead of as more command text; other blocks (CUDA, formulas,
-- output) are left as they are.
local commands = {
  ["make"] = true, ["kitgrade"] = true, ["build/bin/kitgrade"] = true, ["nvcc"] = true,
  ["compute-sanitizer"] = true, ["cd"] = true, ["git"] = true, ["ls"] = true, ["cat"] = true,
  ["sbatch"] = true, ["squeue"] = true, ["nsys"] = true, ["ncu"] = true,
}

local function is_command(line)
  local rest = line:gsub("^%s+", "")
  if rest == "" or rest:sub(1, 1) == "#" then
    return nil -- says nothing either way
  end
  -- leading environment settings: KIT_SCRATCH=$PWD/build/mine make ...
  while rest:match("^[%a_][%w_]*=%S*%s+") do
    rest = rest:gsub("^[%a_][%w_]*=%S*%s+", "", 1)
  end
  local word = rest:match("^(%S+)")
  return word ~= nil and (commands[word] or word:sub(1, 2) == "./")
end

function CodeBlock(block)
  if #block.classes > 0 then
    return nil
  end
  local any, continued = false, false
  for line in (block.text .. "\n"):gmatch("([^\n]*)\n") do
    if not continued then -- a line after a trailing backslash continues a command
      local c = is_command(line)
      if c == false then
        return nil
      end
      any = any or c == true
    end
    continued = line:match("\\%s*$") ~= nil
  end
  if any then
    block.classes = {"bash"}
    return block
  end
end
