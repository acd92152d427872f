-- wrk: cycle through the request paths given after `--`, one per request.
local paths = {}
local next_index = 0

function init(args)
    for i, path in ipairs(args) do paths[i] = path end
end

function request()
    next_index = next_index % #paths + 1
    return wrk.format("GET", paths[next_index])
end
