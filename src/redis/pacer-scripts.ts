/**
 * The Redis pacer's two Lua scripts. Each runs atomically in Redis, on Redis's own clock
 * (`TIME`), so workers on machines whose clocks disagree still share one window. The model is
 * the in-process `Pacer`'s: a slot is busy from the moment it is granted until one window after
 * its request finished (the service counted the request at some moment in between, so freeing
 * it later can only err on the safe side); every figure a response gave arrives clamped.
 *
 * KEYS[1] hash  `state`: `limit` (learned), `blocked` (epoch ms), `used` (finished slots in
 *                the window), `b<bucket>` (finished slots per 1/32 of a window)
 * KEYS[2] zset  `used`: bucket id → when its slots free (latest finish + window)
 * KEYS[3] zset  `flight`: turn id → when its lease ends (a worker that died frees it then)
 */

const PRELUDE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
local lease = tonumber(ARGV[3])
local hint = tonumber(ARGV[4])
-- Forgets finished slots whose window has passed; returns how many remain.
local function prune()
  local used = tonumber(redis.call('HGET', KEYS[1], 'used') or '0')
  local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
  if #expired > 0 then
    for _, bucket in ipairs(expired) do
      used = used - tonumber(redis.call('HGET', KEYS[1], 'b' .. bucket) or '0')
      redis.call('HDEL', KEYS[1], 'b' .. bucket)
    end
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
    if used < 0 then used = 0 end
    redis.call('HSET', KEYS[1], 'used', used)
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  return used
end
-- Counts slots used now: uses in the same 1/32 of the window share one bucket, which frees
-- at the latest of them (at most 1/32 of a window late, never early; constant memory).
local function add(count)
  if count <= 0 then return end
  if count > 1000000 then count = 1000000 end
  local bucket = math.floor(now / (window / 32))
  redis.call('ZADD', KEYS[2], now + window, bucket)
  redis.call('HINCRBY', KEYS[1], 'b' .. bucket, count)
  redis.call('HINCRBY', KEYS[1], 'used', count)
end
local function limitOf()
  local limit = tonumber(redis.call('HGET', KEYS[1], 'limit') or '')
  if limit == nil then limit = hint end
  return limit
end
-- Every key lives as long as its longest wait or lease, plus a window: idle keys expire.
local function keep(blocked)
  local ttl = math.max(blocked - now, lease, 0) + window
  for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ttl) end
end
`;

/**
 * ARGV: turn id, window ms, lease ms, documented limit ('' for none).
 * Returns `{1, 0}` with the slot taken, or `{0, ms}`: no slot before `ms` from now.
 */
export const ACQUIRE = `${PRELUDE}
local used = prune()
local blocked = tonumber(redis.call('HGET', KEYS[1], 'blocked') or '0')
if blocked > now then return {0, blocked - now} end
local limit = limitOf()
local inflight = redis.call('ZCARD', KEYS[3])
if limit ~= nil and used + inflight >= limit then
  local need = used + inflight - limit + 1
  local freed = 0
  local buckets = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
  for i = 1, #buckets, 2 do
    freed = freed + tonumber(redis.call('HGET', KEYS[1], 'b' .. buckets[i]) or '0')
    if freed >= need then return {0, tonumber(buckets[i + 1]) - now} end
  end
  -- The rest are in flight: each frees a window after it ends, so a window from now at the earliest.
  return {0, window}
end
redis.call('ZADD', KEYS[3], now + lease, ARGV[1])
keep(blocked)
return {1, 0}
`;

/**
 * ARGV: turn id, window ms, lease ms, documented limit, then what the service answered
 * ('' for each when the request got no answer): status, its limit, its remaining, and how
 * long the key is blocked (a reset or a 429's Retry-After, clamped to a day by the caller).
 * Returns the key's blocked-until time as ms from now (0 when not blocked).
 */
export const DONE = `${PRELUDE}
redis.call('ZREM', KEYS[3], ARGV[1])
local used = prune()
add(1)
used = used + 1
local blocked = tonumber(redis.call('HGET', KEYS[1], 'blocked') or '0')
local status = tonumber(ARGV[5])
if status ~= nil then
  local said = tonumber(ARGV[6])
  if said ~= nil and said > 0 then redis.call('HSET', KEYS[1], 'limit', math.min(said, 1000000)) end
  local limit = limitOf()
  local limited = status == 429
  local remaining = tonumber(ARGV[7])
  if limited then remaining = 0 end
  if limit ~= nil and remaining ~= nil then
    -- The service counts more than the fleet knows of: someone else shares the key. Hold those slots too.
    add(limit - remaining - used - redis.call('ZCARD', KEYS[3]))
  end
  local wait = tonumber(ARGV[8])
  if (limited or remaining == 0) and wait ~= nil then
    blocked = math.max(blocked, now + math.min(math.max(wait, 0), 86400000))
  elseif limited and limit == nil then
    blocked = math.max(blocked, now + window)
  end
  redis.call('HSET', KEYS[1], 'blocked', blocked)
end
keep(blocked)
return math.max(blocked - now, 0)
`;
