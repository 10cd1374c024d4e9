import { isIP } from "node:net";

/** What decides the origin of links back to this app (decision 0057). */
export interface AppOriginConfig {
  /** PUBLIC_URL, or its default `http://localhost:{PORT}` when unset. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set: then it is the only origin ever used. */
  publicUrlSet: boolean;
}

/** The parts of a request the rule reads: its Host header and the socket it came in on. */
export interface OriginRequest {
  headers: { host?: string | undefined };
  socket: { localAddress?: string | undefined; localPort?: number | undefined };
}

/** `name:port` or `[v6]:port`, nothing else (no user part, no path). */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/i;

const isLoopback = (address: string) =>
  address === "::1" || /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(address);

/** An IPv4 address the socket may report in its IPv6 form (`::ffff:127.0.0.1`). */
const plain = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

/**
 * The origin a link back to this app is built from for a request that the browser will follow
 * right away (checkout's hosted page and return pages), so it comes back to the origin it
 * signed in at, where its session is.
 *
 * PUBLIC_URL set: always PUBLIC_URL. Unset: the request's own origin, but only when its Host
 * names the very address and port the connection reached this server on (or `localhost` when
 * that address is a loopback one); any other Host (a name of someone else's, a proxy's) gets
 * the default PUBLIC_URL. So a forged Host can only ever point a link at this server itself.
 * Links opened later or elsewhere (the password reset mail) never use this: they use PUBLIC_URL.
 */
export function appOriginFor(config: AppOriginConfig, request: OriginRequest): string {
  if (config.publicUrlSet) return config.publicUrl;
  const match = HOST_HEADER.exec(request.headers.host ?? "");
  const { localAddress, localPort } = request.socket;
  if (!match || !localAddress || !localPort) return config.publicUrl;
  const [, named = "", port] = match;
  if (Number(port) !== localPort) return config.publicUrl;
  const hostname = named.replace(/^\[|\]$/g, "").toLowerCase();
  const reached = plain(localAddress).toLowerCase();
  const same =
    isIP(hostname) !== 0
      ? plain(hostname) === reached
      : hostname === "localhost" && isLoopback(reached);
  return same ? `http://${named.toLowerCase()}:${localPort}` : config.publicUrl;
}
