// Where this server is, as the server itself knows it: the address it is bound to, and the base
// URL clients reach it at (DEALGRAPH_PUBLIC_URL, else the bound address). Never the request's Host
// header: that, and the request URL built from it, are the client's to choose (DNS rebinding).
import type { Config } from "../config.ts";

export type BoundAddress = { hostname: string; port: number };

/** The address actually listened on (port 0 resolved), else the configured one. */
export function boundAddress(config: Config, server: { hostname?: string; port?: number } | null): BoundAddress {
  return server?.port ? { hostname: server.hostname ?? config.host, port: server.port } : { hostname: config.host, port: config.port };
}

const isWildcard = (host: string) => host === "" || host === "0.0.0.0" || host === "::";

/**
 * The base URL of this server for what it tells clients about itself (MCP sign-in metadata, token
 * audiences): DEALGRAPH_PUBLIC_URL when set (without a trailing slash), else `http://HOST:PORT` of
 * the bound address; a server bound to every interface names itself `localhost` (it cannot know
 * which of its names a client uses: such a server needs DEALGRAPH_PUBLIC_URL).
 */
export function publicBase(config: Config, server: { hostname?: string; port?: number } | null): string {
  if (config.publicUrl) return config.publicUrl;
  const bound = boundAddress(config, server);
  const host = bound.hostname.replace(/^\[|\]$/g, "");
  const name = isWildcard(host) ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return new URL(`http://${name}:${bound.port}`).origin;
}
