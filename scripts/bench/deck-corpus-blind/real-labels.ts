// Labels for real public decks, written by hand from each deck's own pages (pdftotext and page
// images), never from what any reader returned. Only these labels are committed: the decks stay in
// their repositories (fetched under /work/.mirror, read by blob id). Most are hackathon and
// early-stage decks; several are not in English (French, Persian) or are laid out
// glyph by glyph. 46 are dev (seven added after the first heldout report, four more later, sixteen more in a fourth
// session, ten more in a fifth, two in a sixth, two in a seventh), the rest heldout.
//
// Judgement calls, as for the generated decks: "Up to $500K" is a single amount ($500K); a SAFE's
// valuation cap is not a pre-money; a range ("$2M – $5M", "$6,000 – $12,000") is amount null; an
// amount with no currency sign in a deck that prices everything else in $ is USD; people on the
// deck's team slide are team whatever their role there, advisors listed as "Legal Advisory" are not.
import type { BlindLabels, Part, SectionKey } from "./labels.ts";

export type RealLabel = BlindLabels & { repo: string; path: string; blob: string; part: Part };

type Entry = {
  repo: string;
  path: string;
  blob: string;
  part?: Part;
  company: string;
  aliases?: string[];
  domain?: string | null;
  round?: Partial<BlindLabels["round"]>;
  team?: [string, string][];
  not_team?: string[];
  sections: SectionKey[];
  optional?: SectionKey[];
  traps?: string[];
};

const label = (e: Entry): RealLabel => ({
  id: `real-${e.repo.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}-${e.blob.slice(0, 7)}`,
  repo: e.repo,
  path: e.path,
  blob: e.blob,
  part: e.part ?? "heldout",
  filename: e.path.split("/").pop()!,
  format: "pdf",
  style: "real",
  voice: "real",
  company_name: e.company,
  company_aliases: e.aliases ?? [],
  domain: e.domain ?? null,
  kind: "company",
  round: { stage: null, amount: null, currency: null, pre_money: null, ...e.round },
  team: (e.team ?? []).map(([name, title]) => ({ name, title })),
  not_team: e.not_team ?? [],
  sections_addressed: e.sections,
  sections_optional: e.optional ?? [],
  traps: e.traps ?? [],
});

export const REAL_LABELS: RealLabel[] = [
  // ---- dev, two more of the sixth session (fetched mirrors not labelled before), labelled from
  // pdftotext -layout and Tesseract on the page images: a deck whose slides are images under a text
  // title and a running footer (its team only in a picture), and a student proposal with a team
  // number and no people ----
  label({
    repo: "eviepk12/pitch-deck-ReFill", path: "pitch-deck.pdf", blob: "e750cc488cff8cdc8ae31b8e6eaefc42164c729a", part: "dev",
    // Every slide is a text title ("Team", "Market Sizing") with the content in an image on the next
    // page, and "ReFill | Sigma Group | Made with" in the footer. The team page is photos captioned
    // with given names under "Hustler", "Hipster" and "Hackers" (Programmer, Tester, QA).
    company: "ReFill",
    team: [["Zainal", "Hustler"], ["Vincent", "Hipster"], ["Rafli", "Programmer"], ["Sylvano", "Tester"], ["Kal-el", "QA"]],
    sections: ["team", "product", "market", "competition", "business_model"],
    traps: ["image-slides", "team-in-image", "running-footer", "given-names-only", "no-raise"],
  }),
  label({
    repo: "janecww/busi-ideation", path: "Pitch Deck.pdf", blob: "29f4317074fd4dd17efc430c5c65429885d8672e", part: "dev",
    // "BONNIE 幫你" in every header; "Team 20239" on the cover is a competition entry's number, and no
    // person is named. A survey of respondents is market research; pricing (HKD 2,899) and a cost and
    // revenue projection; a roadmap titled "How we gain traction" is a plan.
    company: "Bonnie",
    aliases: ["BONNIE 幫你"],
    sections: ["market", "product", "competition", "business_model", "financials"],
    traps: ["team-number-not-a-team", "running-header", "market-size-money", "cost-table-money", "no-raise", "hkd"],
  }),
  // ---- dev, ten more of the fifth session (fetched mirrors not labelled before), labelled from
  // pdftotext -layout and the covers' and team pages' images: teams of given names only (photo
  // captions, a cover's row of avatars), roles in lists above or below a photo, names in a column on
  // the closing page, "Surname, Given" names, decks with no team, a raise in Kenyan shillings ----
  label({
    repo: "Christoper-Edmunds/Electrify", path: "Pitch Deck.pdf", blob: "8afe6ae8e2aa44f63af0c3a81a9a8af7f6b60cb5", part: "dev",
    // The cover is an image (the logo and "Electrify"); the team page sets each given name over or under a
    // photo, with a list of roles on the other side of the photo. The competitors' slide is an image.
    company: "Electrify",
    team: [["Iftiak", "Business Admin, Market Researcher, Video Director"], ["Luke", "Researcher, Video editor, Technician, Marketer"], ["Chris", "Concept Artist, Technician, Finance Modeler"], ["Alastair", "Assistant Market Researcher, Chief Design Officer"]],
    sections: ["team", "product", "market", "business_model", "financials"],
    optional: ["competition"],
    traps: ["image-cover", "given-names-only", "roles-above-photo", "no-raise", "pricing-money", "market-size-money"],
  }),
  label({
    repo: "M1ssByt3/Pitch-Deck", path: "Pitch Deck.pdf", blob: "9c66ca73c46a794158844c4615d4f36300a485d1", part: "dev",
    // The deck names no company; its logo is a training programme's (Power Learn Project). What it
    // builds is "Smart KYC". The ask is KES 10M, restated "~USD $75,000": the raise is the shillings.
    company: "Smart KYC",
    round: { amount: 10_000_000, currency: "KES" },
    sections: ["product", "market", "competition", "business_model", "round"],
    optional: ["traction", "financials"],
    traps: ["no-team-slide", "program-logo", "other-currency", "restated-amount", "market-size-money", "use-of-funds-percent"],
  }),
  label({
    repo: "javib51/nhh-2019-iceland", path: "Pitch Deck.pdf", blob: "0acf4445308b0f972979c7f2c408a9d2f10afe88", part: "dev",
    // The team is a photo on the closing page with each given name written over its person.
    company: "Salud",
    team: [["Kacper", ""], ["Naima", ""], ["Waliyah", ""], ["Ferran", ""], ["Javier", ""]],
    not_team: [],
    sections: ["product", "team"],
    optional: ["market"],
    traps: ["given-names-only", "names-on-photo", "no-raise", "partner-logos"],
  }),
  label({
    repo: "sstraccialini/Pydeia", path: "pitch_deck.pdf", blob: "0244d0c5bcd598cd4464a80ccb757404cf6df5aa", part: "dev",
    // The closing page lists the five authors, one per line, without roles.
    company: "Pydeia",
    team: [["Tommaso Aiello", ""], ["Edoardo Paccagnella", ""], ["Alessandro Procoli", ""], ["Filippo Stella", ""], ["Samuele Nicolò Straccialini", ""]],
    sections: ["product", "team"],
    optional: ["market", "business_model"],
    traps: ["names-column-closing-page", "no-raise", "student-project"],
  }),
  label({
    repo: "temmihoo/gstar-presentation", path: "Pitch Deck.pdf", blob: "ef282287c5c4db92c0e86601a5aa9ca9b5fc7833", part: "dev",
    // A bulleted team list "<Name> <Role>", several roles of no usual shape ("Prime Mover", "Guard of Innovations").
    company: "ELL-i",
    team: [["Eero Hakala", "CEO"], ["Teemu Hakala", "Chief Architect"], ["Otso Jousimaa", "HW Designer"], ["Pekka Nikander", "Prime Mover"], ["Jukka Korpihete", "Creative Designer"], ["Jukka Kotkanen", "Relationship Creator"], ["Markus Levlin", "Guard of Innovations"], ["Matti Viita", "Guard of Electrical Safety"]],
    sections: ["product", "business_model", "team"],
    optional: ["market", "competition", "traction"],
    traps: ["unusual-roles", "running-footer", "no-raise"],
  }),
  label({
    repo: "ysjprojects/pentahack", path: "Pitch Deck.pdf", blob: "e557b7d7efab67c44c60eada0defdfcdbfe50a75", part: "dev",
    // Team cards: a given name over the year and course of study.
    company: "SpeechCoach",
    team: [["Shi Jie", "Year 3 NUS Business Analytics"], ["Daniel", "Year 3 NUS Business Analytics and Economics"], ["Samuel", "Year 1 NUS Biomedical Engineering"], ["Yang Yee", "Year 3 NUS Business Analytics"]],
    sections: ["product", "market", "team"],
    optional: ["competition"],
    traps: ["given-names-only", "study-as-caption", "market-size-money", "no-raise"],
  }),
  label({
    repo: "susumutomita/ETHTokyo2024", path: "pitch_deck.pdf", blob: "d402393349bab63d42e5956d72ce98ffef27928e", part: "dev",
    // The cover's name is letter-spaced in two lines ("CHEF" / "CONNECT"); no team, market or money.
    company: "ChefConnect", aliases: ["Chef Connect"],
    sections: ["product"],
    optional: ["business_model"],
    traps: ["no-team-slide", "no-raise", "letterspaced-logo", "hackathon"],
  }),
  label({
    repo: "jasonqiu212/HaveAnot", path: "docs/pitch-deck.pdf", blob: "ff4d92ff382346c58a24c8ef2f40fdd495bee40d", part: "dev",
    // The cover's row of avatars captions the four founders by given name, in capitals; quotes are
    // signed by government agencies, not people. "$25,000 per year" is what a contract costs agencies.
    company: "have anot?", aliases: ["HaveAnot", "Have Anot"],
    team: [["Jason", ""], ["Zsigmond", ""], ["Yiling", ""], ["June", ""]],
    sections: ["product", "competition"],
    optional: ["team", "traction", "market", "business_model"],
    traps: ["given-names-only", "avatar-captions", "agency-testimonials", "cost-money", "no-raise"],
  }),
  label({
    repo: "chanyaoying/citi-hackoverflow-group-slackoverflow", path: "Pitch Deck.pdf", blob: "ce937ab17b809e24c80675e317c5cd47c76a5644", part: "dev",
    // The cover names the hackathon, the product and the team, written "Surname, Given".
    company: "CitiConnect",
    team: [["Chan, Yao Ying", ""], ["Ganesan, Srinivas", ""], ["Hui Hon Yu, Bryan", ""], ["Qin, Ziyuan", ""]],
    not_team: [],
    sections: ["market", "product"],
    optional: ["team"],
    traps: ["program-on-cover", "surname-first-names", "no-raise", "template-credits"],
  }),
  label({
    repo: "FarmerKE/2024_myinsure_website", path: "pitch_deck.pdf", blob: "53154ce388221dac02ca99b4d93c52f34577f6fe", part: "dev",
    // The cover is an image ("MY INSURE"); the pages' text is diagram labels; prices are per user and
    // per module. The team page is an image (read by OCR): a grid of cards, the family name in lower
    // case over the given name in capitals, the role under them; a financial advisor among them.
    company: "MyInsure", aliases: ["My Insure"], domain: "myinsure.africa",
    team: [
      ["Joann Muriithi", "GM"], ["Martin Kioko", "COO"], ["Kennedy Kioko", "CEO"], ["Caesar Tuva", "CTO"], ["Thomson Mutiso", "CFO"],
      ["Mercy Muthoni", "HR Partner"], ["Tony Makau", "Business Analyst & Strategist"], ["Sherie Gakii", "Project Monitoring"], ["Meganne Ngarachu", "Corporate Lawyer"], ["Benson Sifuna", "Financial Advisor"],
      ["Kevin Obura", "Lead Developer"], ["Anthony Munene", "Data Security & Web Platform"], ["Chris Irungu", "IP Lawyer"], ["Nelson Omoro", "Web Developer"],
    ],
    sections: ["product", "competition", "business_model", "team"],
    traps: ["image-cover", "scanned-team-page", "family-name-above-given-name", "no-raise", "pricing-money", "diagram-labels"],
  }),
  // ---- dev, one scanned deck (pages as images, read through OCR), labelled from its page images ----
  label({
    repo: "TheSrinathKamath/grov-spaces", path: "pitch-deck.pdf", blob: "eca5b103b93da013f0dcffbf41207e6028799fbf", part: "dev",
    // The name is a gradient logo on the cover; the team page's title is a small coloured label beside a photo.
    company: "eatSetGo", aliases: ["EatSetGo", "Eat Set Go"],
    team: [["Srinath Kamath", "Technical"], ["Adithyan Karanath", "Finance"], ["LijoMon George", "Logistics"]],
    sections: ["product", "competition", "business_model", "team"],
    optional: ["traction", "market"],
    traps: ["scanned", "logo-only-name", "photo-beside-names", "survey-chart", "no-raise"],
  }),
  // ---- dev, three more of the fourth session: cards centred in columns whose names nearly touch,
  // a grid of given names over family names with the roles elsewhere, a cover with no name ----
  label({
    repo: "kywilliamong/TheFutureOfDataHackathon", path: "Pitch Deck.pdf", blob: "00a65da983b5da296f9acace8696a0cd57dcf4fe", part: "dev",
    // Interns are listed by role only. "Funding $40k" / "$75k" are steps of a timeline and a budget is itemised: no raise is stated.
    company: "BigFoot",
    team: [["William Ong", "CEO/Backend"], ["Steve Maril", "EIR"], ["Gary Cooper", "EIR"]],
    sections: ["product", "market", "competition", "team"],
    optional: ["round", "financials"],
    traps: ["centred-cards", "rotated-title", "use-of-funds-money", "market-size-money", "no-raise"],
  }),
  label({
    repo: "quentin-gopee/Attack", path: "Pitch Deck.pdf", blob: "8d1497f8d6a007ddd86f00f9de2b6c2e92feddc5", part: "dev",
    company: "Attac:k!", aliases: ["Attac:k", "Attack"],
    team: [["Quentin Gopée", "CTO"], ["Théo Plan", "CEO"], ["Nathan Raccah", "CDO"]],
    not_team: ["Steve Martocci"],
    sections: ["product", "market", "traction", "business_model", "competition", "team"],
    traps: ["names-split-over-rows", "roles-beside-emails", "quotation-signature", "market-size-money", "price-money", "competitor-valuation", "no-raise"],
  }),
  label({
    repo: "zplotzke/Documents", path: "Pitch Deck.pdf", blob: "8a951d03bcfd85e5bf11f77b24c39a304f399593", part: "dev",
    company: "HiddenState AI", aliases: ["HiddenState"], domain: "hiddenstate.ai",
    round: { amount: 2_000_000, currency: "USD" },
    team: [["Heidi Plotzke", "Founder + Chief Executive Officer"], ["Zach Plotzke", "Chief Technology Officer"]],
    sections: ["product", "competition", "market", "business_model", "financials", "traction", "team", "round"],
    traps: ["name-not-on-cover", "market-size-money", "revenue-projection", "use-of-funds-money", "pilot-contract-money"],
  }),
  // ---- dev, added in a fourth session (twelve more, labelled from pdftotext -layout): decks that
  // say little about some sections (no team slide, a team slide naming nobody, names only on the
  // cover), names set in capitals ("SURNAME GIVEN;"), a name row over a role row, "Name – Role" lines,
  // a Chinese and a token deck, a raise given as a range beside a single target ----
  label({
    repo: "janneh2000/agenttollgate", path: "PitchDeck.pdf", blob: "62b0f6fb3c9d1fd2b90a611c67032b07359cb295", part: "dev",
    company: "AgentTollgate",
    sections: ["product", "competition"],
    optional: ["market", "business_model"],
    traps: ["hackathon", "no-team-slide", "no-raise", "letterspaced-titles", "price-money"],
  }),
  label({
    repo: "sx-studio/secret-xperience", path: "pitch-deck.pdf", blob: "3cb2d8c2b315b9016bbd50f7eb7cc39c9db70374", part: "dev",
    // "€250K – €500K" on the cover, "€500K seed", "Raise Amount €250K min · €500K target": the target is the raise;
    // "Valuation Cap €3M – €5M pre-money" is a SAFE's cap and a range: no pre-money.
    company: "SecretXperience", domain: "secretxperience.eu",
    round: { stage: "seed", amount: 500_000, currency: "EUR" },
    sections: ["product", "market", "business_model", "competition", "financials", "round"],
    optional: ["traction"],
    traps: ["range-beside-target", "safe-valuation-cap", "use-of-funds-money", "market-size-money", "revenue-projection", "no-team-slide", "letterspaced-titles"],
  }),
  label({
    repo: "IndependentImpact/IndependentImpactHederaAfrica2025", path: "PitchDeck.pdf", blob: "77ae2aef603804b2bdba8e65e308322e8b0c3586", part: "dev",
    // "Team and expertise" names areas of expertise, nobody; "~ $170K, 1 year" is an approximate budget.
    company: "Independent Impact", domain: "independentimpact.org",
    sections: ["product", "market", "business_model", "traction", "team"],
    optional: ["round"],
    traps: ["hackathon", "program-on-cover", "no-names-on-team-slide", "approximate-budget", "market-size-money", "partners-named"],
  }),
  label({
    repo: "nabetse00/algo-fiesta", path: "PitchDeck.pdf", blob: "4159622bad05244fa554cbd6e887c34b0bca9e43", part: "dev",
    company: "AlgoFiesta",
    round: { stage: "seed", amount: 500_000, currency: "USD" },
    sections: ["product", "market", "competition", "business_model", "round"],
    traps: ["no-team-slide", "market-size-money", "use-of-funds-money", "author-handle"],
  }),
  label({
    repo: "airacle-ai/xiaolu-homepage", path: "yaplan/yaplan-pitch.pdf", blob: "fb22f0baa1a2485f197431f1640dfd469f699174", part: "dev",
    company: "YaPlan", aliases: ["芽计", "芽计 YaPlan"],
    sections: ["product", "market", "competition", "business_model"],
    // One line of a three-year path to an ARR under the pricing: a projection in passing.
    optional: ["financials"],
    traps: ["chinese", "no-team-slide", "no-raise", "market-size-money", "price-money"],
  }),
  label({
    repo: "seandonnis/tpsh-coin", path: "pitch-deck.pdf", blob: "7ced02cf4231dc670f13d16924987b330570ee71", part: "dev",
    // The team slide gives roles only ("Founder (pseudonymous)", "CTO — ex-DeFi lead").
    company: "Type Shyt Coin", aliases: ["TYPE SHYT COIN", "TPSH", "Type Shyt", "TPSH Coin"], domain: "type-shyt.io",
    round: { stage: "seed", amount: 1_200_000, currency: "USD" },
    sections: ["product", "business_model", "team", "round"],
    optional: ["financials", "traction"],
    traps: ["token-sale", "no-names-on-team-slide", "use-of-funds-money", "price-money"],
  }),
  label({
    repo: "aynaoutnt1/HYDROTECH", path: "Pitch Deck.pdf", blob: "a699da21cb92e62b7f6eb3f869f7f7c883d241dd", part: "dev",
    company: "HYDROTECH", aliases: ["Hydrotech"],
    team: [["Bentaleb Ismail", "Team's Leader and Web Dev"], ["Imrane Abdelmouktadir", "Team's Videos Editor"], ["Aynaou Mohammed", "Team's Game Dev"], ["Tahiri Mohammed", "Team's Animator"], ["Lina Baji", "Team's Writer"], ["Mouila Abderrahman", "Team's Images Provider"]],
    sections: ["product", "team"],
    optional: ["business_model", "competition", "market"],
    traps: ["names-in-capitals", "name-over-role", "no-raise", "student-team"],
  }),
  label({
    repo: "kapadilla/PhiliReady", path: "Pitch Deck.pdf", blob: "09acd31e2618e25346719793ea5b3834c9edbe1b", part: "dev",
    company: "PhiliReady",
    sections: ["product"],
    optional: ["market"],
    traps: ["hackathon", "no-team-slide", "no-raise", "team-handle"],
  }),
  label({
    repo: "shermanleejm/BIA-GS-Hackathon", path: "Pitch Deck.pdf", blob: "d41d26fb47459e7007c391a93ab1ff23ee7e3d87", part: "dev",
    // "Roles": "Name – Role" lines; one member gives a single name. The organisers thanked are not people.
    company: "Savvy+", aliases: ["SAVVY+", "Savvy", "SAVVY"],
    team: [["Ong Jun Xiang", "Frontend Development"], ["Sherman Lee", "Frontend Development"], ["Zexel Lew", "Backend"], ["Kelvin", "Backend Developement"], ["Rachel Lui", "UI/UX Designer"]],
    sections: ["product", "team"],
    optional: ["market"],
    traps: ["hackathon", "program-on-cover", "name-dash-role", "single-name", "no-raise", "grant-money"],
  }),
  label({
    repo: "disaster-assist/disaster-assist", path: "pitch_deck.pdf", blob: "ec611ae4990bc6b9c93f1470ca9626cb90ad2241", part: "dev",
    company: "IRIS", aliases: ["Immediate Response Information Service"],
    team: [["Jake Billings", "CEO"], ["Shweta Burgula", "Medical Consultant"], ["Michael Jones", "Growth Hacker"], ["Aaron Hill", "Developer"]],
    sections: ["team", "product"],
    traps: ["name-row-over-role-rows", "phone-number-on-every-slide", "no-raise"],
  }),
  label({
    repo: "MattHandzel/SmartHeatedJacket", path: "Pitch Deck.pdf", blob: "024c060330a2fd9b3f6a870371694b1b20df9f76", part: "dev",
    company: "Smart Heated Jacket",
    team: [["David Howard", ""], ["Eric Modesitt", ""], ["Matthew Handzel", ""]],
    sections: ["product"],
    // Three names on the cover and nothing more about them: the team in passing.
    optional: ["team", "financials"],
    traps: ["team-on-cover", "student-team", "no-raise", "price-money"],
  }),
  label({
    repo: "gooliajulia/Hard-of-Hearing-Hackathon", path: "Pitch Deck.pdf", blob: "242fcdc7f4578ea2cd54a5cbe35311c4f4a86a08", part: "dev",
    company: "Weid",
    sections: ["product"],
    optional: ["market", "business_model"],
    traps: ["hackathon", "no-team-slide", "no-raise", "citations"],
  }),
  // ---- dev, added in a later session (four more, labelled from pdftotext -layout) ----
  label({
    repo: "SmrtToken/SMRT", path: "PitchDeck.pdf", blob: "00231f654634ac9028f80ae6438e91ac7838c8a4", part: "dev",
    company: "Smart Startup Token", aliases: ["SMRT", "Smart Startup Company", "The Smart Startup Company", "SMRT Token"], domain: "smartstartuptoken.tech",
    team: [["Simon Krystman", "Entrepreneur and Founder"], ["Alan Barrell", "Alternative Finance"], ["Syed Kamall", "Government and Regulation"], ["Glen Parry", "Blockchain and ICO"], ["Kelsey Paulding", "ICO and Regulation"], ["Flint Sperber", "Economic Model"], ["John Nevard", "Intellectual Property"], ["Maria Kolitsida", "Artificial Intelligence"], ["Anne Cantelo", "PR and Communications"]],
    not_team: ["David Blair"],
    sections: ["product", "team", "round"],
    optional: ["market", "business_model", "financials"],
    traps: ["photo-captions", "team-grid", "honorifics", "token-sale", "no-raise", "partners-named"],
  }),
  label({
    repo: "Kaviar-Network/Kaviar", path: "pitch_deck.pdf", blob: "39c15eb054d0f568134cc960e4553d69bbfd2fcb", part: "dev",
    company: "Kaviar", aliases: ["KAVIAR"],
    team: [["Ren Kunepng", ""], ["Mohak Malhotra", ""], ["Kenneth Goh", ""], ["Ramon Garcia", ""], ["Arindam Singh", ""]],
    sections: ["product"],
    // Five names on the cover and nothing more about them: the team in passing.
    optional: ["team"],
    traps: ["team-on-cover", "letterspaced-logo", "hackathon", "no-raise", "citations"],
  }),
  label({
    repo: "Elite-Digital-Crew/Hustlex-Website", path: "pitch-deck.pdf", blob: "b6cb0a7a87b98c09b5c0dbb9ea4934ce4d0f4d9d", part: "dev",
    company: "HustleX",
    sections: ["product", "market", "competition", "business_model"],
    traps: ["no-team-slide", "no-raise", "no-financials-slide", "market-size-money", "template-credits"],
  }),
  label({
    repo: "lilj999/hive_energy", path: "pitch-deck.pdf", blob: "c87370d9fd75435bf844d33adb0adfb0f2ebb418", part: "dev",
    company: "Hive", aliases: ["IEEE Hive", "Hive Energy"],
    sections: ["product", "market", "business_model", "competition"],
    traps: ["program-on-cover", "no-team-slide", "no-raise", "price-money"],
  }),
  // ---- dev (5) ----
  label({
    repo: "jakepeg/doocoins-landing", path: "PitchDeck.pdf", blob: "3c1b61b87a03aeb582ba9402ce6c30e95443c92b", part: "dev",
    company: "DooCoins", domain: "doo.co",
    round: { amount: 150_000, currency: "USD" },
    team: [["Jacob Kemsley", "Co-founder"], ["Emma Walmsley", "Co-founder"], ["Jeet Viramgama", "Frontend React Developer"], ["Cesar Angulo", "Blockchain Developer"]],
    sections: ["product", "traction", "market", "competition", "business_model", "team", "round"],
    traps: ["grant-money", "market-size-money", "no-financials-slide"],
  }),
  label({
    repo: "Faraday-signer/faraday", path: "pitch-deck.pdf", blob: "3f42c58d1dc66e76858db8b3f47e47a5e0987801", part: "dev",
    company: "Faraday",
    round: { stage: "pre-seed", amount: 750_000, currency: "USD" },
    team: [["Nahem Seguias", "Co-founder · Device"], ["Alejandro Mena", "Co-founder · Wallet"], ["Javi Lois", "Co-founder · Infra"]],
    sections: ["product", "market", "business_model", "financials", "team", "round"],
    optional: ["competition", "traction"],
    traps: ["program-on-cover", "traction-money", "market-size-money", "use-of-funds-money", "revenue-projection"],
  }),
  label({
    repo: "Jakepodell/flexit", path: "Investor Deck Full Team.pdf", blob: "7f039aab025443480e316ab0654a6a7ab083b829", part: "dev",
    company: "FlexIt", aliases: ["FLEXIT"], domain: "flexit.fit",
    round: { amount: 500_000, currency: "USD" },
    team: [["Austin Cohen", "CEO"], ["Kevin Batista", "TBD"], ["Michael Rojas", "Head of Biz Dev"]],
    not_team: ["Adam Zeitsiff"],
    sections: ["market", "product", "competition", "financials", "round", "team"],
    optional: ["business_model", "traction"],
    traps: ["safe-valuation-cap", "use-of-funds-money", "financial-table", "customer-testimonial", "market-size-money", "legal-suffix"],
  }),
  label({
    repo: "mariapiatedesco/SwissHacks2025", path: "PitchDeck.pdf", blob: "a877b085ce35e35672c1099efc2713bb2ef6554a", part: "dev",
    company: "TechBabies",
    team: [["Mariapia Tedesco", ""], ["Can Demirkol", ""], ["Cosimo Naldi", ""], ["Giacomo Silva", ""]],
    sections: ["product", "team"],
    traps: ["no-raise", "hackathon"],
  }),
  label({
    repo: "ecool9940/Wetech", path: "Pitch Deck.pdf", blob: "d8e56d98b1d7b907e5874c270a5ad1df77383c5b", part: "dev",
    company: "ICPay", aliases: ["iPay", "Ipay"],
    sections: ["market", "product", "competition", "business_model"],
    optional: ["traction"],
    traps: ["no-raise", "no-team-slide", "chart-numbers"],
  }),

  // Added later, labelled from pdftotext -layout and the cover's image (an image-only cover).
  label({
    repo: "jomini-ai/jomini-ai.github.io", path: "pitch-deck.pdf", blob: "b66906dec92f22a1a23843b02e654efe2888e7e3", part: "dev",
    company: "Uchains",
    round: { stage: "pre-seed", amount: 300_000, currency: "USD" },
    team: [["Clément Gourrierec", "Business & Content"], ["Grégoire Thibaud", "Product & Tech"]],
    not_team: ["Billy Harvey", "Pierre-Arthur Chartard", "Mark Coopersmith", "Philippe Lehrmann", "Najah Naffah", "Christophe Danjou", "Nadim Chamoun", "Loïc Parrenin", "Michel-Édouard Leclerc"],
    sections: ["product", "market", "competition", "team", "financials", "round"],
    optional: ["traction", "business_model"],
    traps: ["letterspaced-titles", "advisors-slide", "use-of-funds-money", "market-size-money", "revenue-projection", "name-not-on-cover"],
  }),
  label({
    repo: "vbot-telegram/pitch-deck", path: "pitch_deck.pdf", blob: "e233766ed1a65e1cc53f5944867702aee5041301", part: "dev",
    company: "VBot", aliases: ["Vbot", "Vbot Trading Suite", "VBot Trading Suite"],
    sections: ["product"],
    optional: ["business_model", "competition", "market", "traction"],
    traps: ["no-raise", "no-team-slide", "letterspaced-titles"],
  }),

  label({
    repo: "roundpenny/roundpenny", path: "docs/pitch-deck.pdf", blob: "227a5ebccd44b25dfd8f10e23c46df32bf4a8465", part: "dev",
    company: "RoundPenny",
    // "Amount $750k – $1.5M": a range, no single amount. The team slide names no one ("[Name, placeholder]").
    round: { stage: "seed" },
    sections: ["market", "product", "business_model", "competition", "financials", "round"],
    optional: ["team", "traction"],
    traps: ["range-raise", "market-size-money", "financial-table", "revenue-projection", "use-of-funds-money", "comparable-deal-money"],
  }),
  label({
    repo: "ANERTiC/anertic", path: "docs/pitch-deck.pdf", blob: "73900d2af09210347361189253a95791bd31fc75", part: "dev",
    company: "ANERTiC", aliases: ["ANERTIC", "Anertic"], domain: "anertic.com",
    sections: ["product", "market", "competition", "business_model"],
    optional: ["traction"],
    traps: ["no-raise", "no-team-slide", "market-size-money", "letterspaced-titles"],
  }),
  label({
    repo: "RAVEN-dubgub/venture-raven-dubgub", path: "docs/pitch-deck.pdf", blob: "f47ceede5cef6ccee25f937b9ea1666bd211441f", part: "dev",
    // The founder signs with a handle ("RAVEN (@raven-dubgub)"): no person's name, so no team member.
    company: "Agent Git Lab Teams", aliases: ["Agent Git Lab"],
    round: { stage: "pre-seed", amount: 250_000, currency: "USD" },
    sections: ["product", "market", "competition", "business_model", "traction", "round"],
    optional: ["team"],
    traps: ["market-size-money", "letterspaced-titles"],
  }),

  label({
    repo: "DINetworks/DI-U2U-Protocol", path: "PitchDeck.pdf", blob: "1f5349ddfd87e789c9e6ab3680061650a9b13660", part: "dev",
    // An estimated budget as ranges ("Total $100,000 - $200,000") and a fund-usage chart: no raise is stated.
    company: "DI Networks", aliases: ["DINetworks", "IU2U Labs"],
    team: [["Wayne Poon", "Co-Founder, Owner"], ["Cha Sui Soon", "Co-Founder"], ["Ilyasa Sazali", "Co-Founder"]],
    sections: ["product", "team"],
    optional: ["business_model", "round", "financials", "competition", "market"],
    traps: ["use-of-funds-money", "range-raise", "no-raise"],
  }),
  label({
    repo: "bethelclement/plastitrack", path: "pitch_deck.pdf", blob: "35e5687737e98cb166dbb1fa57eba3ff37bb2476", part: "dev",
    company: "PlastiTrackBES", aliases: ["PlastiTrack", "PlastiTrack BES"],
    team: [["Blessing Evea Onwe", "Team Lead & Creative Director"], ["Bethel Clement", "Asst Team Lead & Product/Data Lead"], ["Kenneth Anietie Nyong", "Program Coordinator & Community Engagement"], ["Wakala Bilkisu", "Communications Lead & Store Operations"]],
    sections: ["product", "team", "business_model", "traction", "financials"],
    optional: ["market", "competition", "round"],
    traps: ["grant-money", "no-raise"],
  }),

  // Two decks of page images only (read by OCR), labelled from the page images in a seventh session.
  label({
    repo: "mgia/aptlyQuotes", path: "pitch_deck.pdf", blob: "6f5862c5ca359c1d87832051762c870640bf7921", part: "dev",
    // The cover is the logo alone; the team is four photos captioned with names only, under no title.
    company: "KeyKey",
    team: [["Marc G Tan", ""], ["Vasooda Kumar", ""], ["Eduardo Echavarria", ""], ["Pablo Uribe", ""]],
    sections: ["product", "competition", "business_model", "team"],
    optional: ["market", "traction"],
    traps: ["image-only", "logo-cover", "no-raise", "photo-captions", "survey-percentages"],
  }),
  label({
    repo: "a252937166/strata", path: "docs/pitch-deck.pdf", blob: "db5ecb12a6030e9b036344af3d14591cce61ba5a", part: "dev",
    company: "STRATA", aliases: ["Strata"],
    sections: ["product"],
    optional: ["competition"],
    traps: ["image-only", "no-raise", "no-team-slide", "hackathon"],
  }),

  // ---- heldout ----
  label({
    repo: "a3ro-dev/nerdy-net-pitch-deck", path: "pitch-deck.pdf", blob: "1e86eff761cb0e605c6f11d5b867185e82eec6f2",
    company: "Nerdy Network",
    round: { stage: "seed", amount: 1_500_000, currency: "USD" },
    sections: ["product", "market", "traction", "business_model", "competition", "financials", "team", "round"],
    traps: ["burn-in-raise-sentence", "use-of-funds-money", "arr-goal", "market-size-money", "competitor-valuation", "no-names-on-team-slide"],
  }),
  label({
    repo: "GokhanCey/pixel-africa", path: "PitchDeck.pdf", blob: "22f306891a79c882c491f3f1919f8af26b1f9e1e",
    company: "PixelAfrica",
    sections: ["product"],
    optional: ["market", "round"],
    traps: ["no-raise", "no-team-slide", "hackathon", "program-on-cover"],
  }),
  label({
    repo: "FishingVerse/documents", path: "PitchDeck.pdf", blob: "23544c7a723ec3c7683666a5ba8ca5925a7b2855",
    company: "Fishing Verse", aliases: ["FishVerse"],
    sections: ["product", "market"],
    optional: ["business_model", "round", "competition"],
    traps: ["no-raise", "no-team-slide", "market-size-money"],
  }),
  label({
    repo: "DelmarCrypto/legatio.finance", path: "PitchDeck.pdf", blob: "37118b9aa7fb8974c789c9ff4da3978fcda9a1d8",
    company: "Legatio",
    round: { amount: 5_000_000, currency: "USD" },
    team: [["Rodrigues Delmar", "CEO"]],
    sections: ["product", "market", "business_model", "competition", "financials", "round", "team"],
    traps: ["french", "market-size-money", "use-of-funds-money", "revenue-projection"],
  }),
  label({
    repo: "Phi-Coherent-Inc/website", path: "investor-deck.pdf", blob: "5f0ff04303c2e93e6aa3eab9765965902909cc46",
    company: "Phi-Coherent", aliases: ["φCoherent", "Phi-Coherent Inc."], domain: "phicoherent.com",
    round: { stage: "pre-seed" },
    sections: ["product", "market", "business_model", "round"],
    optional: ["competition"],
    traps: ["range-raise", "letterspaced-titles", "market-size-money", "no-team-slide"],
  }),
  label({
    repo: "Skyocean-International/decks", path: "commercial-pitch-deck.pdf", blob: "704346aa4b117cf82cfd2c5bbb5ff8a88dca0d4c",
    company: "Skyocean", domain: "skyocean.io",
    round: { stage: "pre-seed", amount: 2_000_000, currency: "USD", pre_money: 15_000_000 },
    team: [["Gaurav Yadav", "CTO"], ["Sebastian Gonzalez", "CEO/Co-founder"], ["Alexey Deshin", "CGO/Co-founder"], ["Elias Nartey", "PR & Communications"]],
    not_team: ["Andrius Petkevicius"],
    sections: ["product", "market", "business_model", "competition", "financials", "team", "round"],
    optional: ["traction"],
    traps: ["traction-money", "market-size-money", "use-of-funds-money", "equity-ticket-tiers", "advisors-on-team-slide"],
  }),
  label({
    repo: "Skyocean-International/decks", path: "pitch-deck.pdf", blob: "809705117211fd9dad7accf53a15418677eac8aa",
    company: "Skyocean", domain: "skyocean.io",
    round: { stage: "pre-seed", amount: 2_000_000, currency: "USD" },
    team: [["Gaurav Yadav", "CTO"], ["Sebastian Gonzalez", "CEO/Co-founder"], ["Alexey Deshin", "CGO/Co-founder"], ["Elias Nartey", "PR"], ["Mustafa Alhamare", "Manager Sudan"]],
    not_team: ["Andrius Petkevicius"],
    sections: ["product", "market", "business_model", "competition", "financials", "team", "round"],
    optional: ["traction"],
    traps: ["amount-without-currency-sign", "traction-money", "market-size-money", "use-of-funds-money", "advisors-on-team-slide"],
  }),
  label({
    repo: "MetaCubez/Pitch-Deck", path: "Pitch Deck.pdf", blob: "9dd46ccb0e6c865be9e777508a4060c086ec13a4",
    company: "MetaCubez", domain: "metacubez.io",
    team: [["Peter Kelleher", "CEO"], ["Fabio Morelli", "CMO"], ["Shubhanshu Verm", "Head of Cyber Security"], ["Dr. Abdoalgadir", "Sr. Software programmer"], ["Rashid Tarig", "Senior Copywriter"], ["Borislav Cos", "3D Animator"], ["Muhammad Fahad", "Blockchain Developer"], ["Michael Sunday", "Legal Consultant"], ["Zewd Ayallew", "Social Media Specialist"], ["Nilesh Chhipa", "UX/UI Designer"], ["Yousef Issa", "Product Manager"], ["Daria Sclifos", "3D Designer"]],
    sections: ["product", "team"],
    optional: ["competition", "business_model"],
    traps: ["no-raise", "token-allocation-percentages", "split-glyph-runs", "three-team-slides"],
  }),
  label({
    repo: "HeronimoV/seekalpha", path: "investor-deck.pdf", blob: "aa5133b432aa7c219b98fd1580d495a12ac41a3d",
    company: "SeekAlpha", domain: "seekalpha.bet",
    round: { stage: "seed" },
    sections: ["market", "product", "competition", "business_model", "financials", "round"],
    optional: ["traction"],
    traps: ["range-raise", "competitor-money", "future-series-a", "no-team-slide"],
  }),
  label({
    repo: "HDATimeOfficial/HDATime", path: "docs/Pitch Deck.pdf", blob: "abad37ef9e572d5b4b6cd00975c3eeea98d7d359",
    company: "HDATime", aliases: ["HDAT"],
    sections: ["product", "business_model"],
    optional: ["market", "competition"],
    traps: ["no-raise", "no-team-slide", "token-allocation-percentages"],
  }),
  label({
    repo: "Rickofar/pitch_deck", path: "Pitch Deck.pdf", blob: "b6022b4591fe0512db06d40fa73b5c99fc9add35",
    company: "ADR Stock Manager", aliases: ["Rick Ofar-Inc", "Rick Ofar"],
    team: [["Frederick Adarode", "Founder"]],
    sections: ["product", "business_model", "team"],
    optional: ["market", "competition", "financials"],
    traps: ["no-raise", "product-name-differs-from-company"],
  }),
  label({
    repo: "00Maryam002/startup2", path: "Pitch Deck.pdf", blob: "be451ec5ea2ead487c2b4088b978b1a5b5ae0f6c",
    company: "TokenTalks", aliases: ["Token Talks"],
    team: [["مریم مداح علی", "CEO, CTO"], ["زهره جمشیدی", "CFO"]],
    sections: ["product", "market", "business_model", "competition", "team", "financials", "round"],
    optional: ["traction"],
    traps: ["persian", "right-to-left", "monthly-budget-not-a-raise", "revenue-projection"],
  }),
  label({
    repo: "juv1nsk1/leen", path: "PitchDeck.pdf", blob: "c272ff1fb162d2d1c3bf71b000f33deaf1555352",
    company: "LEEN",
    team: [["Luciano Juvinski", ""], ["Yifei Ren", ""], ["Abhishek Bhatnagar", ""], ["Ayush Jain", ""], ["Alan Ling", ""]],
    sections: ["market", "product", "business_model", "team"],
    optional: ["competition"],
    traps: ["no-raise", "program-on-cover", "team-on-cover"],
  }),
  label({
    repo: "usmanfiaz06/simplihuman", path: "pitch-deck.pdf", blob: "c4bf200d385b3f59cb70abcdfdea5862988bc134",
    company: "SimpliHuman", domain: "simplihuman.com",
    round: { stage: "seed", amount: 850_000, currency: "USD" },
    team: [["Mohammad J Sear", "Co-Founder"], ["Saima Salman", "Co-Founder"], ["Doruk Sardag", "Co-Founder"], ["Usman Fiaz", "Co-Founder — Design Lead"], ["Salman Mustafa", "Co-Founder — CTO"]],
    sections: ["market", "product", "traction", "business_model", "competition", "financials", "team", "round"],
    traps: ["competitor-valuation", "market-size-money", "use-of-funds-money", "future-series-a", "revenue-projection"],
  }),
  label({
    repo: "unholy0X/bite-seeker", path: "pitch-deck.pdf", blob: "de5010233e288cc3f0a78d17f24251190d3e3fc1",
    company: "Bite Seeker", aliases: ["BITE SEEKER"],
    team: [["Faycal", "Mobile, React Native, UI/UX"], ["Naoufal", "Backend"]],
    sections: ["product", "team", "business_model"],
    optional: ["market", "round", "traction"],
    traps: ["no-raise", "program-on-cover", "letterspaced-titles", "ask-without-money"],
  }),
  label({
    repo: "piltonet/documents", path: "pitch-deck.pdf", blob: "e397a0bb39f9c58541771e3d7ca26256e8bd76ba",
    company: "Piltonet", domain: "piltonet.com",
    team: [["Farokh Madah", "Founder & CTO"], ["Pooyan Sedghi", "CMO"]],
    sections: ["product", "team"],
    optional: ["market"],
    traps: ["no-raise"],
  }),
  label({
    repo: "Efymer/hedgie-wealth-view", path: "pitch-deck.pdf", blob: "f5a418241658160f1955f7fc40c17655448a652d",
    company: "HbarWatch",
    team: [["Aleix Devesa", "Software Engineer"]],
    sections: ["market", "product", "business_model", "team", "round"],
    optional: ["traction"],
    traps: ["ask-without-amount", "market-size-money", "hackathon"],
  }),
];
