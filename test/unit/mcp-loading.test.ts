// Two things the /mcp door keeps for the process: the MCP SDK, loaded on first use (a failed load
// is tried again, not kept), and the machine's interface addresses (read again only after a while).
import { describe, expect, test } from "bun:test";
import { cachedInterfaces } from "../../src/modules/mcp/mcp.origin.ts";
import { loadOnce } from "../../src/modules/mcp/mcp.routes.ts";

describe("loadOnce", () => {
  test("a load that fails is tried again on the next call; one that succeeds is shared", async () => {
    let calls = 0;
    const load = loadOnce(async () => {
      calls++;
      if (calls === 1) throw new Error("ENOSPC: the module could not be read");
      return { sdk: calls };
    });
    await expect(load()).rejects.toThrow("ENOSPC");
    const first = await load();
    expect(first).toEqual({ sdk: 2 });
    expect(await load()).toBe(first);
    expect(calls).toBe(2);
  });
});

describe("cachedInterfaces", () => {
  test("the interfaces are read once per period, then again", () => {
    let reads = 0;
    let now = 0;
    const interfaces = cachedInterfaces(() => ({ eth0: [{ address: `10.0.0.${++reads}` } as never] }), 30_000, () => now);
    expect(interfaces().eth0![0].address).toBe("10.0.0.1");
    now = 29_999;
    expect(interfaces().eth0![0].address).toBe("10.0.0.1");
    now = 30_000;
    expect(interfaces().eth0![0].address).toBe("10.0.0.2");
    expect(reads).toBe(2);
  });
});
