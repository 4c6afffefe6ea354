"""The words :mod:`host_harness.capture.rules` decides by: what opens a rule, what makes a sentence chat.

Each table lists phrases in the languages users of coding agents commonly type (English first, then
French, German, Spanish, Portuguese, Italian, Dutch, Polish, Russian, Ukrainian, Turkish, Swedish,
Japanese, Chinese, Korean), compiled case-insensitively into one pattern. A phrase names a *kind* of
wording, never one sentence: the classifier combines them with where they stand in the sentence.
The texts they are matched against are lower case (``str.casefold``).
"""

from __future__ import annotations

import re

SYNTAX = frozenset("^$.|?*+()[]{}")
TOKENS = re.compile(r"\\.|[\^$.|?*+()\[\]{}]|[^\\^$.|?*+()\[\]{}]+")  # a phrase's syntax, or literal text


class Phrases:
    """Phrases compiled into one pattern, searched only when a text each phrase needs is in the text.

    ``start``: only at the start of the text; ``words``: whole words only.

    A big alternation costs tens of microseconds per sentence in ``re``; most sentences hold none of
    the phrases, and ``in`` finds that out for a microsecond or two.
    """

    def __init__(self, phrases: list[str], *, start: bool = False, words: bool = True) -> None:
        body = "|".join(sorted(phrases, key=len, reverse=True))
        edge = r"(?<![\w'])" if words else ""
        tail = r"(?![\w])" if words else ""
        self.pattern = re.compile(("^" if start else edge) + f"(?:{body})" + tail, re.I)
        needed = [_needed(phrase) for phrase in phrases]
        self.keys = None if "" in needed else tuple(sorted(set(needed)))

    def search(self, text: str) -> re.Match[str] | None:
        """The first phrase in ``text`` (lower case)."""
        if self.keys is not None and not any(key in text for key in self.keys):
            return None
        return self.pattern.search(text)

    def match(self, text: str) -> re.Match[str] | None:
        """A phrase at the start of ``text``."""
        return self.pattern.match(text)

    def sub(self, repl: str, text: str) -> str:
        """``text`` with each phrase replaced by ``repl``."""
        return text if self.search(text) is None else self.pattern.sub(repl, text)


def _needed(phrase: str) -> str:
    """The longest run of literal text outside any group of ``phrase``: every match holds it ("" if none)."""
    runs, run, depth = [], "", 0
    for token in TOKENS.findall(phrase):
        syntax = token.startswith("\\") or token in SYNTAX
        if not syntax:
            run += token if depth == 0 else ""
            continue
        if token == "|" and depth == 0:
            return ""  # a phrase of alternatives: no text they all hold
        runs.append(run[:-1] if token in "?*{" else run)  # a quantified character may be absent
        run = ""
        depth += (token in "([{") - (token in ")]}")
    return max([*runs, run], key=len).casefold()


def _set(*words: str) -> frozenset[str]:
    return frozenset(" ".join(words).split())


# "From now on": a rule for the time after this prompt, wherever it stands.
FROM_NOW_ON = Phrases([
    "from now on", "going forward", "moving forward", r"from here on(?: out)?", "henceforth", "hereafter",
    r"in (?:the )?future", *(rf"from {when} (?:on(?:wards?)?|forward)" for when in ("this point", "today",
                                                                                  "tomorrow", "this day")),
    "from here onwards", "from here forward", "starting now", "starting today", "starting tomorrow",
    "as of now", "as of today",
    "à partir de maintenant", "a partir de maintenant", "désormais", "dorénavant", "à l'avenir",
    "dès maintenant", "ab jetzt", "von nun an", "ab sofort", "künftig", "zukünftig", "in zukunft", "fortan",
    "a partir de ahora", "de ahora en adelante", "en adelante", "desde ahora",
    "a partir de agora", "de agora em diante", r"daqui (?:pra|para) frente", "daqui em diante",
    r"d'ora in (?:poi|avanti)", "da ora in poi", "da adesso in poi", "d'ora innanzi", "in futuro",
    "vanaf nu", "voortaan", "in de toekomst", "van nu af aan",
    "od teraz", "od tej pory", "na przyszłość", "odtąd", "od dzisiaj",
    "отныне", "с этого момента", "впредь", "в дальнейшем", "с сегодняшнего дня",
    "відтепер", "надалі", "з цього моменту", "bundan sonra", "bundan böyle",
    "från och med nu", "framöver", "hädanefter", "i fortsättningen",
])
FROM_NOW_ON_CJK = Phrases(["今後", "これから", "以後", "今から", "以后", "今后", "从现在开始",
                           "从今以后", "往后", "앞으로", "이제부터", "지금부터"], words=False)

# Chat, not a rule: "never mind", a scope that ends, a hedge.
NEVER_MIND = Phrases([
    r"never\s*mind", "nvm", r"forget (?:it|that|about it)", "scratch that", r"(?:ignore|disregard) that",
    "laisse tomber", r"oublie (?:ça|ca)", "peu importe", "tant pis",
    r"vergiss (?:es|das)", "schon gut", r"lass (?:es|mal) gut sein",
    "olvídalo", "olvidalo", "no importa", "da igual", "déjalo",
    r"deixa (?:pra|para) lá", "esquece", "não importa", "deixa quieto",
    r"lascia (?:perdere|stare)", "non importa", "fa niente", "laat maar", "maakt niet uit", "vergeet het",
    "nieważne", "niewazne", "nie ważne", "zapomnij", "mniejsza z tym",
    "неважно", "не важно", "забудь", "проехали", "неважливо",
    "boş ver", "boşver", "unut gitsin", "önemli değil", "strunt i det", "glöm det", "skit samma",
])
NEVER_MIND_CJK = Phrases(["気にしないで", "もういい", "やっぱりいい", "算了", "没关系", "不用了",
                          "别管了", "됐어", "신경 쓰지 마", "신경쓰지마"], words=False)
NOT_A_SCOPE = r"(?!repo\b|repository|project|codebase|team|company|package|module|service|app\b|library)"
TEMPORARY = Phrases([
    "for now", "for the moment", "for the time being", "just this once", r"(?:only )?this time(?: only)?",
    "today", "tonight", "right now", "at the moment", "temporarily", r"while (?:we|i|you)(?:'re| are)?",
    r"for the rest of (?:this|the) (?:session|day|week|conversation)", r"^until",
    r"for (?:this|that|the current|the next|today's)(?: one| single)? " + NOT_A_SCOPE + r"\w+",
    r"(?:in|on|for) this (?:one |single )?(?:test|run|commit|pr|pull request|branch|session|experiment"
    r"|script|case|call|ticket|task|demo|spike|search)",
    r"this (?:one|single|particular) \w+", r"this (?:branch|pr|pull request|commit|ticket|deploy|session)",
    "pour l'instant", "pour le moment", "cette fois", r"pour (?:ce|cette) \w+", "temporairement",
    "vorerst", "für jetzt", r"erst ?mal", r"dieses mal", "diesmal", r"für (?:diesen|dieses|diese) \w+",
    "vorübergehend", "por ahora", "por el momento", "esta vez", r"para (?:esta|este) \w+", "temporalmente",
    "por enquanto", "por agora", "desta vez", "temporariamente", "per ora", "per adesso", "per il momento",
    "questa volta", r"per questo \w+", "temporaneamente", "voorlopig", "voor nu", "deze keer",
    r"voor deze \w+", "tijdelijk", "na razie", "tym razem", r"dla tego \w+", "tymczasowo", "пока что",
    "на этот раз", "временно", "поки що", "цього разу", "тимчасово", "şimdilik", "bu seferlik", "bu sefer",
    "geçici olarak", "tills vidare", "den här gången", "tillfälligt",
])
TEMPORARY_CJK = Phrases(["今回", "とりあえず", "今だけ", "一時的", "暂时", "这次", "이번만", "이번에는",
                         "일단", "지금은", "임시로"], words=False)
HEDGE = Phrases(["might", "maybe", "perhaps", "probably", "possibly", "hopefully", "i guess", "i wonder",
                 "i suppose", "i think"])

# A one-off choice among what the assistant offered ("the second option you gave").
CHOICE = Phrases([
    r"you (?:gave|suggested|proposed|showed|mentioned|listed|offered)",
    r"you (?:wrote|described|did) (?:above|earlier|before)",
    r"(?:option|alternative|suggestion|proposal|variant|approach|solution) #?(?:\d+|[a-d])",
    r"(?:first|second|third|fourth|last|other|previous|earlier|left|right|top|bottom|former|latter) "
    r"(?:one|option|approach|version|suggestion|proposal|variant|layout|alternative|solution|plan)",
    r"your (?:first|second|third|last|previous|earlier|other|latest|original)",
    r"(?:last|previous|earlier) (?:message|answer|reply|response)",
])
# ... or of what it made: "We prefer the dark theme you mocked up."
CHOSEN = re.compile(
    r"^(?:(?:we|i)(?:'d| would)? )?(?:prefer|use|take|pick|choose|like|keep)\s+(?:the|that|this|those|these"
    r"|your)\b[^,.;]{0,50}?\byou\s+(?:\w+ed|made|wrote|drew|built|did|gave|showed|came up with"
    r"|put together)\b", re.I)
# Someone else's words: "My manager keeps saying we should always …", "The docs say to always …".
REPORTED_SPEECH = re.compile(
    r"\b(?:he|she|they|someone|somebody|everyone|people|(?:my|the|our|his|her|their) \w+|\w+ (?:keeps|kept))"
    r"\s+(?:\w+\s+)?(?:says?|said|saying|tells?|told|claims?|claimed|insists?|insisted|thinks?|believes?"
    r"|argues?|wrote|writes)\b", re.I)

# Questions: a sentence opening these is asked, not told (with or without its question mark).
ASKS = Phrases(["should", "would", "is", "are", "was", "were", "shall", "why", "how", "what", "what's",
                "which", "who", "whose", "where", "any idea", "any reason", "wonder if"], start=True)
ASKS_WHEN_FOLLOWED = re.compile(
    r"^(?:do|does|did|can|could|will|have|has|may)\s+(?:we|i|you|it|they|there|the|this|that|these|those|he"
    r"|she|our|my|your)\b", re.I)

# Where "always" / "never" open an imperative: "Always run …", "Don't ever …", "Make sure to always …".
IMPERATIVE = re.compile(
    r"^(?:(?:make|be) sure (?:to |that you |you )?|try to |remember to |please )?"
    r"(?:always|never(?: ever)?|(?:don't|do not|dont)(?: you)? ever)[,!]?\s+(\S+)\s*(\S*)", re.I)
# What follows an opening "always"/"never" in a description or an idiom: "Always the same error".
NOT_AN_ACTION = _set(
    "the a an this that these those same something anything nothing one mind again better worse more less",
    "too so such fun easy simple good bad great nice seen been heard had done got gotten did was were went",
    "thought knew understood found felt saw made happy glad ready fine welcome interesting true right wrong",
    "worth funny weird strange annoying painful late early")
INVERTED = _set("have has had do does did will would could can was were is am shall")  # "Never have I …"
PRONOUNS = _set("i we you he she they it")
# "We always <verb>": a habit stated as a convention, unless the verb tells of what happens to us.
WE = re.compile(r"^(?:we|i)\s+(always|never|don't|do not|dont|only|prefer|use|keep|avoid)\b\s*(\S*)", re.I)
HAPPENS = _set(
    "forget forgot think thought know knew understand understood have had get got end ended seem seemed",
    "wonder find found feel felt see saw hit struggle lose lost miss missed break broke hate love like wish",
    "mean meant expect hear heard need was were been be")
MODAL = Phrases([f"{modal} {adverb}" for modal in ("should", "must", "shall", "has to", "have to", "need to",
                                                    "needs to") for adverb in ("always", "never", "not ever")]
                + [f"^{nobody} {modal}" for nobody in ("nobody", "no one", "noone")
                   for modal in ("should", "must", "shall", "may")])
# "No more print debugging, ever." / "Nothing goes to prod untested, ever."
EVER_AFTER = re.compile(r"^(?:no|nothing|nobody|no one|not)\b.*\bever(?: again)?$", re.I)
# "Tabs, not spaces, in Go files." / "We deploy with Helm, not kubectl apply."
CONTRAST = re.compile(
    r"^(?!(?:the|a|an|it|this|that|he|she|they|you|i)\b)\S+(?: \S+){0,2}, not \S+(?: \S+){0,2}"
    r"(?:,? (?:in|for|on|across|everywhere|anywhere)\b.*)?$"
    r"|^we (?!(?:had|got|were|was|did)\b)\w+\b(?<!ed)[^,]{0,60},\s*(?:not|never|instead of|rather than)\b",
    re.I)
# "Keep line length at 100 in this repo." / "Use four spaces everywhere."
# "Use single quotes in Python files." / "Indent with 2 spaces, never tabs." / "Run make lint before
# every commit." (a kind of file, a "never" contrast, or a recurring moment makes it standing)
STANDING = re.compile(
    r"^(?:keep|use|put|write|name|format|prefer|avoid|stick (?:to|with)|follow|limit|cap)\b"
    r"(?! (?:the|this|that|these|those|my|it|going)\b).*\b"
    r"(?:(?:in|across|for) (?:this|the|our) (?:repo|repository|project|codebase)|everywhere"
    r"|(?<!\bthe )(?<!\bthis )(?<!\bthese )(?<!\bthose )(?<!\bmy )(?:in|for) (?:all |every |our )?\w+ "
    r"(?:files|modules|code|sources))$"
    r"|^(?:keep|use|put|write|name|format|indent|wrap|end|start|sort|store|log|run|prefer"
    r"|stick (?:to|with))\b[^,;]{3,80}, never \S"
    r"|^(?:run|rebase|test|lint|format|build|check|update|pull|sign|squash)\b[^,;]{1,60}\b(?:before|after) "
    r"(?:every|each) \w+$", re.I)
USE_NOT = re.compile(
    r"^(?:(?:we|you should|you must)\s+)?(?:use|prefer)\s+\S+(?:\s+\S+){0,4}?,?\s+(?:not|never|instead of"
    r"|rather than|over)\s+\S|^prefer\s+\S+(?:\s+\S+){0,3}?\s+(?:to|for)\s+\S", re.I)
# "Every public function needs a docstring." / "Commit messages must start with the ticket number."
QUANTIFIED = re.compile(
    r"^(?:every|each|all) (?!(?:the|of|my|your|these|those)\b)(?:\w+[ -]){0,3}\w+ "
    r"(?:needs?|must|should|gets?|has to|have to|requires?)\b"
    r"|^(?!(?:they|things|results|errors)\b)(?:(?!(?:the|this|these|those|my|your|all)\b)\w+ ){0,2}\w+s "
    r"(?:must|should)"
    r"(?: always| never| not)? \w+", re.I)
REMEMBER = re.compile(r"^remember (to|that)\s+(.*)$", re.I)
CLAUSE_VERB = Phrases(["is", "are", "isn't", "aren't", "has", "have", "hasn't", "haven't", "must", "can",
                       "cannot", "can't", "should", "needs", "need", "runs", "uses", "lives", "belongs",
                       "doesn't", "don't", "does", "will", "won't", "goes", "stays", "requires", "expects",
                       "only"])
SHARED_PAST = re.compile(r"\b(?:i|we|you)\s+(?:\w+\s+)?(?:mentioned|wrote|did|saw|talked|discussed|fixed|made"
                         r"|built|found|had|sent|showed|used|looked|tried|added|opened)\b", re.I)
WHENEVER = re.compile(r"^(?:whenever|every time|each time|any ?time|(?:before|after) (?:every|each|any)"
                      r"|(?:if|when|whenever) you)\b[^,]{1,120},\s*(\S+)", re.I)
CONDITION_THEN = re.compile(r"^(?:if|when|whenever|before|after|once)\b[^,]{1,120},\s*(?:always|never"
                            r"|(?:don't|do not) ever)\s+\S", re.I)
NOT_IMPERATIVE = _set("it the i we they he she this that there my our a an its their your you")
SCOPE = re.compile(
    r"^(?:in|for|across) (?:this|our|the) (?:repo|repository|project|codebase|team|company|org|organisation"
    r"|organization|monorepo|workspace)\b,?\s+(?:we |all |every |each |always |never |nothing |no )"
    r"|^(?:in|for) (?:this|our|the) (?:repo|repository|project|codebase)\b.*, not ", re.I)
CONVENTION = re.compile(
    r"^(?:rule of thumb|golden rule|ground rule|house rule|team rule)s?\b[^:]{0,40}:"
    r"|^(?:our|team|house)(?: (?:naming|commit|code|coding|branch|git|review|testing|release|style))? "
    r"(?:convention|policy|rule|standard|style|guideline)s?\s*(?:is|are|:)"
    r"|^the (?:\w+ )?(?:convention|policy|rule|standard|guideline)s? (?:here|in this (?:repo|project"
    r"|codebase|team))\s*(?:is|are|:)", re.I)

# Other languages: "always"/"never" opening an imperative (after at most one word, the verb).
ALWAYS_NEVER = _set(
    "toujours jamais immer nie niemals siempre nunca jamás sempre mai altijd nooit zawsze nigdy всегда",
    "никогда завжди ніколи her_zaman asla hiçbir_zaman daima alltid aldrig altid aldri")
NEGATION = _set("ne n' non no nie не ні inte")
WE_WORDS = _set("wir nous on nosotros nós noi wij my мы ми biz vi")
ARTICLES = _set(
    "the a an le la les l' un une ce cette der die das ein eine el los las o os as il lo gli i de het een",
    "este esta ese esa questo questa dit deze dat dieser diese это этот эта тот та он она оно bu şu")
DESCRIBES_RU = re.compile(r"(?:ет|ёт|ит|ат|ят|ут|ют|ется|ится|ался|ал|ала|ало|али)$")  # "тест всегда падает"
CYRILLIC = re.compile(r"[а-яіїє]")
ALWAYS_CJK = Phrases(["总是", "始终", "一直", "永远", "常に", "いつも", "必ず", "絶対", "決して",
                      "항상", "반드시", "절대"], words=False)
ORDER_CJK = Phrases(["ください", "して", "しないで", "するな", "すること", "しろ", "请", "要", "不要",
                     "别", "不许", "禁止", "必须", "务必", "세요", "하지 마", "마세요", "해라", "하십시오"],
                    words=False)
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")

# Openers that do not change what follows: "Also, please …", "Important: …", "Btw, …".
LEAD = re.compile(
    r"^(?:(?:note|important|reminder|remember|heads up|one more thing|rule|nb|ps|tip|warning|btw|fyi"
    r"|by the way|just so you know|for the record|also)\s*[,:!-]\s*"
    r"|(?:oh and|and also|ok(?:ay)?|also|and|so|but|actually|oh|ah|hey|then|please|pls|plz|kindly|just"
    r"|bitte|por favor|s'il te plaît|s'il vous plaît|stp|svp|per favore|alsjeblieft|proszę|пожалуйста"
    r"|lütfen|snälla|auch|aussi|también|também|anche|ook)\b[,:!]?\s+)", re.I)
# A label before a colon that is not an opener: "My colleague said: …", "The linter output: …".
REPORTED = Phrases(["said", "says", "say", "wrote", "writes", "reads", "read", "posted", "output", "printed",
                    "shows", "claims", "states", "mentions", "suggests", "recommends", "commented", "replied",
                    "asked", "titled", "message", "error", "log", "sentence", "line", "text", "comment"])
