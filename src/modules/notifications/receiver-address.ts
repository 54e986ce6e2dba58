import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a notification may go, by the address its host resolves to at the moment of sending (a
 * name checked when the TPP sent it may point elsewhere later): never into the bank's own
 * networks. Private, shared, link-local and special-purpose ranges are refused always; loopback
 * only in the sandbox, where the TPP developer's receiver runs on the same machine.
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Why a notification may not be sent to `address`, or undefined when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
  const [plain, type] = mapped === undefined ? [address, family === 4 ? 'ipv4' : 'ipv6'] : [mapped, 'ipv4'];
  if (LOOPBACK.check(plain, type as 'ipv4' | 'ipv6')) return allowLoopback ? undefined : `${address} is a loopback address`;
  if (INTERNAL.check(plain, type as 'ipv4' | 'ipv6')) return `${address} is in a private or reserved network`;
  return undefined;
}

/**
 * Why a notification may not be sent to the host of `uri` when the host is an IP address (the
 * socket resolves no name then, so {@link receiverLookup} never sees it), or undefined.
 */
export function refusedLiteralHost(uri: string, allowLoopback: boolean): string | undefined {
  const host = new URL(uri).hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 0 ? undefined : refusedAddress(host, allowLoopback);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the sockets that send notifications: resolves as usual, and fails the connection
 * when any address of the host is refused by {@link refusedAddress}.
 */
export function receiverLookup(allowLoopback: boolean) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '', 0);
      const refused = addresses.map((entry) => refusedAddress(entry.address, allowLoopback)).find((reason) => reason !== undefined);
      if (refused !== undefined) {
        const blocked: NodeJS.ErrnoException = new Error(`notification receiver ${hostname} refused: ${refused}`);
        blocked.code = 'ERR_NOTIFICATION_ADDRESS';
        return callback(blocked, options.all ? [] : '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      return first ? callback(null, first.address, first.family) : callback(new Error(`no address for ${hostname}`), '', 0);
    });
  };
}
