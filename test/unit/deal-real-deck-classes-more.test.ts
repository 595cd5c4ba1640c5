// More classes of failure found on real public decks (the bench's real dev part, a fourth set), each
// held by the names and figures the reader must give and by what it must not: a row of centred cards
// whose names sit closer than a box gap, captions of no role's shape under a row of names, a team
// title in the deck's own words, "<NAME>; <CAPTION>" and "<Name> – <Caption>" lines, a table of
// contents that lists the team's slide, the company named by a solution's title, a running footer or
// the second page's title, navigation and presenter labels that are no name, a stage's funding as a
// term's label, a digit inside a word that is no figure, and a plan written in Chinese.
import { describe, expect, test } from "bun:test";
import { layoutText, type PositionedText } from "../../src/documents/pdf-layout.ts";
import type { DealAnalysis } from "../../src/engines/deal-engine.ts";
import { analyse, deckPages, teamOf } from "./deal-facts-corpus.ts";

const scored = (a: DealAnalysis, key: string) => a.sections.find((s) => s.key === key)!.score !== null;

const PAGE_HEIGHT = 405;
const at = (str: string, x: number, y: number, size: number, width: number): PositionedText => ({ str, transform: [size, 0, 0, size, x, PAGE_HEIGHT - y], width, height: size });

describe("a team as real decks lay it out", () => {
  test("cards centred in columns: names closer than a box gap are still one card each, over their roles", () => {
    // Names at 20pt, 1.2-1.6 em apart; each name centred over its roles (14pt) as on a four-card slide.
    const items = [
      at("Team", 324, 55, 28, 72),
      at("Ana Keller", 68, 223, 20, 111),
      at("Bruno Castellanos", 211, 223, 20, 141),
      at("Maria Jonsson", 375, 223, 20, 128),
      at("Tom Hill", 553, 223, 20, 87),
      ...[
        ["CEO", "Idea Person", "Hacker"],
        ["Medical Consultant", "UX Designer", "Beta Tester"],
        ["Growth Hacker", "Watson Expert", "Snack Person"],
        ["Developer", "Deployment Expert", "Git Guru"],
      ].flatMap((roles, k) => {
        const centre = [124, 281.5, 439, 596.5][k];
        return roles.map((r, n) => at(r, centre - (r.length * 7) / 2, 241 + n * 16.5, 14, r.length * 7));
      }),
    ];
    const text = layoutText(items, [1, 0, 0, -1, 0, PAGE_HEIGHT]);
    expect(text.split(/\n+/).slice(0, 5)).toEqual(["Team", "Ana Keller", "Bruno Castellanos", "Maria Jonsson", "Tom Hill"]);
    expect(teamOf("Acme\nEmergency answers by text", text)).toEqual([
      ["Ana Keller", "CEO"],
      ["Bruno Castellanos", "Medical Consultant"],
      ["Maria Jonsson", "Growth Hacker"],
      ["Tom Hill", "Developer"],
    ]);
  });

  test("a team title in the deck's own words, names in capitals with a caption after a semicolon, one name alone over its caption", () => {
    const page = [
      "Our Super Team",
      "We are students with expertise in web development, games and animation.",
      "KOVAC ISMAIL; TEAM'S LEADER and WEB DEV",
      "DARIA ABDELLAOUI; TEAM'S VIDEOS EDITOR",
      "LINA BERAT;",
      "TEAM'S WRITER",
      "MOUNA TAHIRI; TEAM'S ANIMATOR",
    ].join("\n\n");
    expect(teamOf("AQUALEARN\nWater education for schools", page)).toEqual([
      ["Kovac Ismail", "TEAM'S LEADER and WEB DEV"],
      ["Daria Abdellaoui", "TEAM'S VIDEOS EDITOR"],
      ["Lina Berat", "TEAM'S WRITER"],
      ["Mouna Tahiri", "TEAM'S ANIMATOR"],
    ]);
  });

  test("'Roles' over '<Name> – <Caption>' lines, a department's words being no one's name", () => {
    const page = "Conclusion\n\nRoles\n\nLee Wen Hao – Frontend Development\n\nSara Lim – Backend\n\nRita Chua – UI/UX Designer\n\nWe thank the organisers for this hackathon.";
    expect(teamOf("Spendwise\nFinance for students", page)).toEqual([
      ["Lee Wen Hao", "Frontend Development"],
      ["Sara Lim", "Backend"],
      ["Rita Chua", "UI/UX Designer"],
    ]);
  });

  test("a row of names over one role and captions of no role's shape, under a title the page reads last", () => {
    expect(teamOf("Acme\nSocial media toolkit", "Will Ong\n\nSteve Marin\n\nGary Cole\n\nCEO/Backend\n\nEIR\n\nEIR\n\nThe Team vv")).toEqual([
      ["Will Ong", "CEO/Backend"],
      ["Steve Marin", "EIR"],
      ["Gary Cole", "EIR"],
    ]);
  });

  test("given names over family names as a grid on the team's page, the roles beside the emails: the names", () => {
    expect(teamOf("Acme\nMaps of sounds", "Quentin | Théo | Nathan\nGopard | Plan | Raccah\n\nThe team\naattack.contact@example.com\n\nCTO\nquentin@example.com")).toEqual([
      ["Quentin Gopard", null],
      ["Théo Plan", null],
      ["Nathan Raccah", null],
    ]);
  });

  test("a quotation's signature on the quotation's own line is no member", () => {
    expect(teamOf("Acme\nMaps of sounds", '"A third of the world tries to make music" Splice Chief Executive Officer Steve Martin')).toEqual([]);
  });

  test("a name and role set in capitals on one line; an icon font's glyph beside a name", () => {
    expect(teamOf("Acme\nPayments", "Team\n\nJANE DOE, CEO\n\nJOHN ROE, CTO")).toEqual([
      ["Jane Doe", "CEO"],
      ["John Roe", "CTO"],
    ]);
    expect(teamOf("Acme\nPayments", "Team\n\nJane Doe \uf0e1\nCEO\n\nJohn Roe \uf0e1\nCTO")).toEqual([
      ["Jane Doe", "CEO"],
      ["John Roe", "CTO"],
    ]);
    // Capitals do not make an investor a member.
    expect(teamOf("Acme\nPayments", "OUR INVESTORS\n\nJANE DOE, PARTNER AT XYZ CAPITAL")).toEqual([]);
  });

  test("a slogan of pronoun-led pairs ('We Care, We Connect, We Empower') is no line of names", () => {
    expect(teamOf("Bonnie\nWe Care, We Connect, We Empower", "Problem\nElderly loneliness is growing.")).toEqual([]);
  });

  test("a table of contents that lists the team's slide names no one", () => {
    const page = "Contents\nIntroduction | Business Model\nProblem Statement | Product Demo\nSolution Overview | Roadmap\n\nOur Team";
    expect(teamOf("Acme\nCross-chain payments", page)).toEqual([]);
  });
});

describe("the company's name", () => {
  test("a title that names the solution when the cover names nothing", async () => {
    const a = await analyse(deckPages(["Empowering Events on the Blockchain\nDate: 12/06/2024", "1. Problem Statement\nHigh fees on ticketing platforms.", "2. Solution: Ticketora\nA decentralized app for event tickets.", "3. How It Works\nUsers do not need to register on Ticketora."]));
    expect(a.facts.company.name).toBe("Ticketora");
  });

  test("a running footer in the name's own script and its latin spelling, not a framework's name on the cover", async () => {
    const footer = "芽计 Sprouta";
    const a = await analyse(deckPages([`产品画布 · Lean Canvas\n\n技术 Claude API\n\n${footer}`, `用户研究\n月均教育支出 ¥3,200\n\n${footer}`, `市场规模\nTAM 总市场\n\n${footer}`, `产品方案\n\n${footer}`]));
    expect(a.facts.company.name).toBe(footer);
  });

  test("navigation and a presenter's label are no name; the cover's name is", async () => {
    const nav = "Home\nAbout\nProject\nContact";
    const a = await analyse(deckPages([`${nav}\nReliefCast:\nMicro-Demand\nForecaster for Relief Goods\nPresented By :\nstr(UPC)`, `${nav}\nDisaster Problem\nRelief demand is hard to estimate.`, `${nav}\nPrototype\nPresented By :\nstr(UPC)`, `${nav}\nThank you!\nWith ReliefCast, communities prepare sooner.\nPresented By :`]));
    expect(a.facts.company.name).toBe("ReliefCast");
  });

  test("a splash page before the cover: the second page's title that the footers repeat", async () => {
    const footer = "Text ALERTA @ (850) 555-0100";
    const a = await analyse(deckPages(["TEXT THIS NUMBER\n(850) 555-0100", `ALERTA\nImmediate Response Information Service\n${footer}`, `Problem\nInformation is hard to get in emergencies.\n${footer}`, `Solution\nAn SMS platform to share your location.\n${footer}`]));
    expect(a.facts.company.name).toBe("ALERTA");
  });

  test("a name styled with a colon inside it; an article alone is no name", async () => {
    const a = await analyse(deckPages(["Attac:k!\nStop Scrolling, Start Playing.", "Observation\nSample packs are spread over the Internet.", "Business Model\nSubscription: 9.90$ per month."]));
    expect(a.facts.company.name).toBe("Attac:k");
    const b = await analyse(deckPages(["Voltra\nOffline.", "THE\n\nPROBLEM\nWallets get hacked.", "THE\n\nSOLUTION\nA signer you can trust.", "THE\n\nTEAM\nThree founders."]));
    expect(b.facts.company.name).toBe("Voltra");
  });

  test("a cover with no name: the words of the text that spell the deck's own address", async () => {
    const a = await analyse(deckPages(["</>\nTransforming Data into Intelligence, Innovation into Impact", "Why DeepHollow AI?\nThe right team, the right vision.", "Contact\nWebsite: deephollow.ai\nheidi@deephollow.ai"]));
    expect(a.facts.company).toMatchObject({ name: "DeepHollow", domain: "deephollow.ai" });
  });

  test("a diagram's labels on the second page are no name, though other slides repeat them", async () => {
    const body = "\n\nThe miller reads each record.\n\nThe retailer shows it to shoppers.\n\nShoppers scan it in the store.";
    const a = await analyse(
      deckPages(["Why the food industry?\nRecalls cost millions.", `Traceability is painful\n\nFARMER\n\nMILLER\n\nRETAILER${body}`, `Our solution\nA signed record per batch.\n\nFARMER${body}`, `Pilot\nOne cooperative in 2025.\n\nFARMER${body}`]),
    );
    expect(a.facts.company.name).toBeNull();
  });

  test("a letter alone and a challenge's title are no name", async () => {
    const a = await analyse(deckPages(["1ª JORNADA INCUBINTECH · DESAFIO SAÚDE DO MÉDICO\nO médico cuida de todos.\nQuem cuida do médico?", "O PROBLEMA\nNão é falta de vontade.", "A SOLUÇÃO\nUma plataforma clínica."]));
    expect(a.facts.company.name).toBeNull();
  });

  test("given names set one by one on the cover are no company name; a name over two one-word claims is", async () => {
    const a = await analyse(deckPages(["Public officers' partner in building cheaper and modular solutions\n\nJASON\n\nZSIGMOND\n\nYILING\n\nJUNE", "Problem\nOfficers struggle to scope problems.", "Solution\nWe help officers break down problems."]));
    expect(a.facts.company.name).toBeNull();
    const b = await analyse(deckPages(["Voltra\n\nOffline.\n\nUnhackable.", "Problem\nWallets get hacked.", "Solution\nA signer you can trust."]));
    expect(b.facts.company.name).toBe("Voltra");
    const c = await analyse(deckPages(["SALVIA\n\nKEPT\n\nSECRET\n\nPrivate transfers with pools", "Problem\nTransfers are public.", "Solution\nPrivate pools."]));
    expect(c.facts.company.name).toBe("SALVIA");
    const d = await analyse(deckPages(["Planned homely food at your doorstep.\n\nPresented by | Ravi Menon", "How it works?\nDieticians plan the diet.", "Business Model\nSubscription."]));
    expect(d.facts.company.name).not.toBe("Ravi Menon");
  });

  test("a student group's number in the footer is no name", async () => {
    const a = await analyse(deckPages(["1\nHeated Smart Vest\n2024-11-09\nGroup 8 | 1", "Problem Statement\nIt can get very cold.\nGroup 8 | 2", "Proposed System\nConductive heater fabric.\nGroup 8 | 3"]));
    expect(a.facts.company.name).toBe("Heated Smart Vest");
  });
});

describe("the round and the sections", () => {
  test("'Seed Funding: $500,000 to cover ...' under 'Funding Requirements' is the raise", async () => {
    const a = await analyse(deckPages(["Ticketora\nEvents on the blockchain", "Revenue Model\nA small flat fee on each event creation.", "8. Funding Requirements\nSeed Funding: $500,000 to cover initial development, marketing, and operational costs.\nUse of Funds:\n40% Development: Enhancing the platform.\n30% Marketing: User acquisition."]));
    expect(a.facts.round).toMatchObject({ stage: "seed", amount: 500_000, currency: "USD" });
  });

  test("a digit inside a word ('p95', 'x402') is no figure: a feature list naming revenue is no traction", async () => {
    const a = await analyse(deckPages(["Tollway\nA paywall for AI agents", "Live analytics from call #1\nRevenue/min, top-spending agents, p95 latency, payment failure heatmap.", "How it works\nAn x402-compatible flow: the agent pays, we replay the request."]));
    expect(scored(a, "traction")).toBe(false);
    // A statement of customers with a figure still is.
    const b = await analyse(deckPages(["Tollway\nA paywall for AI agents", "Today 40 merchants and 1,200 agents use Tollway; revenue grew 30% last month."]));
    expect(scored(b, "traction")).toBe(true);
  });

  test("'vs.' between two of the company's own things is no competition; against someone it is", async () => {
    const a = await analyse(deckPages(["Medguard\nMental health for doctors", "Modelo de negócio\nReceita: SaaS B2B por médico ativo/mês, em tiers (básico vs. institucional com painel)."]));
    expect(scored(a, "competition")).toBe(false);
    const b = await analyse(deckPages(["Medguard\nMental health for doctors", "Why us\nMedguard vs. Headspace: built for clinicians, not consumers."]));
    expect(scored(b, "competition")).toBe(true);
  });

  test("column labels set in a row under a problem's title do not open new sections", async () => {
    const a = await analyse(deckPages(["Speakly\nYour key to effective speaking", "PROBLEMS\n\nTechnology\n\nOpportunity\n\nFear\n\nIn an era where communication occurs mostly online, students are less comfortable with face-to-face interactions.\n\nOpportunities to speak in public are hard to come by for most students."]));
    expect(scored(a, "market")).toBe(false);
    expect(scored(a, "product")).toBe(false);
    // A market's title with its sizes is still the market.
    const b = await analyse(deckPages(["Speakly\nYour key to effective speaking", "ADDRESSABLE MARKETS\nTotal addressable market: global EdTech, $123.4B."]));
    expect(scored(b, "market")).toBe(true);
  });

  test("a running footer under every slide's title is evidence of no section; the company it names is still found", async () => {
    const footer = "Reelo | Sigma Group | Made with Gamma";
    const a = await analyse(deckPages(["Review-Watch-Reelo", `Problem\n\n${footer}`, `Team\n\n${footer}`, `Market Sizing\n\n${footer}`, `Competition Landscape\n\n${footer}`, `Business Model\n\n${footer}`]));
    for (const key of ["team", "market", "competition", "business_model"]) expect(scored(a, key)).toBe(false);
  });

  test("a roadmap's steps are plans, never traction achieved", async () => {
    const a = await analyse(deckPages(["Acme\nPayments for shops", "Problem\nShops pay high fees.", "Roadmap\n\nQ3 2025\nOnboard 20 ambassadors in 5 countries; $10K merch volume\n\nQ1 2026\n500 ambassadors; 1,000+ paying customers worldwide"]));
    expect(scored(a, "traction")).toBe(false);
    // Achieved figures under a traction title still are.
    const b = await analyse(deckPages(["Acme\nPayments for shops", "Traction\n1,000+ paying customers; $10K monthly volume."]));
    expect(scored(b, "traction")).toBe(true);
  });

  test("a three-year path to an ARR written in Chinese is a projection, not traction", async () => {
    const a = await analyse(deckPages(["芽计 Sprouta\n家庭财务规划", "商业模式\n标准版 ¥99 / 月", "3年路径：免费用户 100 万 → 付费转化 10% → 标准版 ARR ¥9,900 万"]));
    expect(scored(a, "traction")).toBe(false);
  });
});
