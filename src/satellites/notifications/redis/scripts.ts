/**
 * The lease and the fenced write, as Lua scripts: Redis runs each one whole, with nothing
 * between its check and its write, so a holder whose token is no longer current cannot write.
 */

/** KEYS: lease, fence. ARGV: owner, lease ms. The new fencing token, or 0 while another holds the lease. */
export const ACQUIRE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0`;

/** KEYS: lease, fence. ARGV: owner, lease ms, token. 1 when renewed, 0 when the lease is someone else's (or gone). */
export const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('GET', KEYS[2]) == ARGV[3] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/** KEYS: lease. ARGV: owner. Deletes the lease only if it is still this owner's. */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** KEYS: fence, target. ARGV: token, value. Writes only with the current fencing token: 1 written, 0 refused. */
export const FENCED_SET = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[2], ARGV[2])
return 1`;
