// Public-web enrichment of a founder: their GitHub profile and repositories, read through
// safe-fetch (public addresses only, short timeout, capped size) from DEALGRAPH_GITHUB_API_URL.
// Any failure (offline, refused, 404, rate limit, odd JSON) is evidence that is missing, never a
// failed run: the caller gets the reason as a sentence for `missing_info`.
import type { Deps } from "../../deps.ts";
import type { GithubProfile } from "../../engines/founder-engine.ts";
import { safeFetch, SafeFetchError } from "../../lib/safe-fetch.ts";

const TIMEOUT_MS = 5_000;
const MAX_BYTES = 2 * 1024 * 1024;
const HEADERS = { accept: "application/vnd.github+json", "user-agent": "Dealgraph/1.0 (+self-hosted founder analysis)" };

export type GithubRead = { profile: GithubProfile; error: null } | { profile: null; error: string };

const WHY: Partial<Record<SafeFetchError["code"], string>> = {
  blocked_address: "the GitHub API host does not resolve to a public internet address (offline?)",
  timeout: `GitHub did not answer within ${TIMEOUT_MS / 1000} s`,
  connection_failed: "the connection to GitHub was refused or dropped",
  tls_failed: "GitHub's TLS certificate could not be verified",
};

class GithubUnreadable extends Error {}

async function getJson(deps: Deps, url: string, login: string): Promise<unknown> {
  let res;
  try {
    res = await safeFetch(url, {
      allowPrivate: deps.config.allowPrivateNetwork,
      requireHttps: !deps.config.allowPrivateNetwork,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      headers: HEADERS,
    });
  } catch (error) {
    throw new GithubUnreadable(error instanceof SafeFetchError ? (WHY[error.code] ?? error.message) : (error as Error).message);
  }
  if (res.status === 404) throw new GithubUnreadable(`GitHub has no user ${login}`);
  if (res.status === 403 || res.status === 429) throw new GithubUnreadable(`GitHub refused the request (HTTP ${res.status}, rate limit?)`);
  if (res.status !== 200) throw new GithubUnreadable(`GitHub answered HTTP ${res.status}`);
  if (res.truncated) throw new GithubUnreadable("GitHub's answer was too large");
  try {
    return JSON.parse(new TextDecoder().decode(res.body));
  } catch {
    throw new GithubUnreadable("GitHub's answer is not JSON");
  }
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const int = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

export async function readGithub(deps: Deps, login: string): Promise<GithubRead> {
  const base = deps.config.githubApiUrl.replace(/\/+$/, "");
  const user = encodeURIComponent(login);
  try {
    const profile = await getJson(deps, `${base}/users/${user}`, login);
    if (typeof profile !== "object" || profile === null || typeof (profile as { login?: unknown }).login !== "string") {
      throw new GithubUnreadable("GitHub's answer is not a user profile");
    }
    const p = profile as Record<string, unknown>;
    const repos = await getJson(deps, `${base}/users/${user}/repos?per_page=100&sort=pushed`, login);
    if (!Array.isArray(repos)) throw new GithubUnreadable("GitHub's repository list is not a list");
    return {
      profile: {
        login: String(p.login),
        name: str(p.name),
        bio: str(p.bio),
        company: str(p.company),
        followers: int(p.followers),
        publicRepos: int(p.public_repos),
        createdAt: str(p.created_at),
        repos: repos
          .filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null && typeof r.name === "string")
          .map((r) => ({
            name: String(r.name),
            stars: int(r.stargazers_count),
            language: str(r.language),
            fork: r.fork === true,
            description: str(r.description),
            pushedAt: str(r.pushed_at),
          })),
      },
      error: null,
    };
  } catch (error) {
    if (error instanceof GithubUnreadable) return { profile: null, error: `GitHub profile could not be read: ${error.message}` };
    throw error;
  }
}
