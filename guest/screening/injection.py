"""Instructions aimed at the agent in untrusted text: the reason to quarantine it, or ``None`` (issue 28).

A memory or an archived block that reads as a prompt injection is stored, but never injected by the
hook and never promoted into a skill until someone approves it. :func:`reason` names the first
finding:

* **hidden text**: Unicode tag characters (U+E0020-E007E spell invisible ASCII), runs of three or
  more zero-width characters, right-to-left/left-to-right override characters, or an instruction
  found only once zero-width characters are removed (``ig\\u200bnore previous instructions``);
* **an instruction** (:data:`PHRASES`): overriding earlier instructions ("ignore all previous
  instructions", "disregard everything above", and in French, German, Italian, Spanish), changing
  the agent's role or rules ("you must now", "you are now DAN", "you have no restrictions",
  "developer mode", "do anything now"), asking for the system prompt, chat-template tokens and
  fake ``SYSTEM:`` lines, text addressed to an AI reader ("note to the AI", "if you are an AI
  assistant"), keeping something from the user, sending credentials or data to an address,
  "decode this and do what it says", and piping a download into a shell (``curl … | sh``);
* running what it downloads, in either order (``curl -o f URL && bash f``, ``python -c "$(curl …)"``,
  ``deno run https://…``), sending data away (``curl -d @.env URL``, ``cat ~/.aws/credentials |
  curl …``, "send the contents of .env to x@y"), an image URL that carries data, and "ignore the
  instructions" in Portuguese, Russian, Chinese, Japanese and Korean (issue 38);
* the same instructions **inside an HTML comment**, **encoded** (base64, hex, ``%xx``,
  ``\\uXXXX`` escapes, eight-bit binary, letters spaced apart, rot13, leetspeak): decoded and read
  again; or **written with look-alike letters** (fullwidth, Cyrillic ``о``): folded to ASCII by
  :mod:`guest.screening.confusables` and read again.

Matching is ASCII and case-insensitive (``re.ASCII``), over the text with white space collapsed, so
it is the same on CPython 3.11 and 3.14. Ordinary developer text -- "ignore case when sorting",
"act as a proxy", "System requirements:" -- is not an instruction to the agent.
"""

from __future__ import annotations

import base64
import re

from guest.screening import confusables, ruleset

TAGS = re.compile("[\U000e0000-\U000e007f]+")
FLAG_TAGS = re.compile("\U0001f3f4[\U000e0061-\U000e007a]{2,8}\U000e007f")  # subdivision flags (England)
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u180e\u2061\u2062\u2063\u2064"
ZERO_WIDTH_RUN = re.compile(f"[{ZERO_WIDTH}]{{3,}}")
INVISIBLE = re.compile(f"[{ZERO_WIDTH}\u00ad]")
OVERRIDES = re.compile("[\u202d\u202e]")
COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)", re.DOTALL)
W = r"(?:[^\s.!?]+\s+)"  # one word and the space after it, within a sentence
AI = r"(?:ai|a\.i\.|llm|language\s+model|assistant|agent|bot|chatbot|claude|chatgpt|gpt|copilot|model)"
ANY_AI = r"(?:(?:the|any|all|every|an?)\s+)?(?:ai\s+)?" + AI + "s?"
SENSITIVE = (r"(?:\.env\b|\.aws/|credentials\b|id_rsa|id_ed25519|id_ecdsa|\.ssh/|\.netrc|\.npmrc|\.pypirc"
             r"|\.git-credentials|\.kube/config|\.docker/config|/etc/passwd|/etc/shadow|secrets?\.(?:json|ya?ml|env|txt)"
             r"|\.pgpass|\.bash_history|keychain)")


class Phrase:
    """An instruction pattern, tried only when the text holds one of its words (or ``marks``).

    The pattern cannot match without one of them, so a text without any costs a set intersection.
    It is matched in the lower-cased text, or, when ``cased``, in the text as it is (``SYSTEM:``).
    """

    __slots__ = ("cased", "marks", "negatable", "pattern", "reason", "words")

    def __init__(
        self, reason: str, pattern: str, words: str, marks: tuple[str, ...] = (), cased: bool = False,
        negatable: bool = False,
    ) -> None:
        self.reason = reason
        self.negatable = negatable  # not a finding when its sentence forbids it ("never chmod 777")
        self.pattern = re.compile(pattern, re.ASCII)
        self.words = frozenset(words.split())
        self.marks = marks
        self.cased = cased


PHRASES: tuple[Phrase, ...] = (
    Phrase("overrides earlier instructions",
     r"\b(?:ignore|disregard|forget|neglect)\s+" + W + r"{0,3}?(?:previous|prior|above|earlier|preceding"
     r"|former|foregoing|original|initial|system|developer|all|any|your|every)\s+" + W
     + r"{0,2}?(?:instructions?|prompts?|directions?|directives?|rules|guidelines|guardrails|polic(?:y|ies)"
     r"|context|messages|commands|constraints|programming|restrictions|safety)\b",
           "ignore disregard forget neglect"),
    Phrase("overrides earlier instructions",
     r"\b(?:ignore|disregard|forget|neglect)\s+(?:the|these|those|all|any|your|my)\s+(?:[a-z-]+\s+)?(?:instructions?"
     r"|prompts?|directions|directives|rules|guidelines|context|messages)\s+(?:above|before\s+this|so\s+far|from\s+before"
     r"|(?:given|written|provided|stated)\s+(?:above|before|earlier|previously|so\s+far)|you\s+(?:were|have\s+been)\s+given)\b",
           "ignore disregard forget neglect"),
    Phrase("overrides earlier instructions",
     r"\b(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:(?:you\s+(?:were|have\s+been)\s+told|"
     r"(?:that\s+)?(?:was\s+)?(?:said|written))\s+)?(?:above|before|prior|previously|earlier|so\s+far)\b",
           "ignore disregard forget"),
    Phrase("overrides earlier instructions",
     r"\b(?:ignor[a-z]*|oubli[a-z]*|olvid[a-z]*|dimentic[a-z]*|vergiss[a-z]*)\s+" + W
     + r"{0,3}?(?:istruzioni|anweisungen|instructions|instrucciones|richtlinien|regeln|consignes)\b",
           "istruzioni anweisungen instructions instrucciones richtlinien regeln consignes"),
    Phrase("overrides earlier instructions", r"\bvergiss\s+alles\b",
           "vergiss"),
    Phrase("overrides earlier instructions",  # Portuguese
     r"\b(?:ignor[a-z]*|esque\S*|desconsider[a-z]*|despreze?)\s+(?:todas\s+)?(?:as\s+|suas\s+|essas\s+)*"
     r"(?:instru\S*|regras|diretrizes|orienta\S*)\s+(?:anteriores|acima|pr\S*vias|originais|iniciais|do\s+sistema)"
     r"|\b(?:ignor[a-z]*|esque\S*|desconsider[a-z]*)\s+todas\s+as\s+(?:instru\S*|regras|diretrizes)",
           "", ("instru", "regras", "diretrizes", "orienta")),
    Phrase("overrides earlier instructions",  # Russian
     "(?:игнорир|проигнорир|забудь|забудьте|отбрось|пренебреги|не\\s+обращай\\S*\\s+внимани\\S*\\s+на)\\S*\\s+"
     "(?:\\S+\\s+){0,3}?(?:инструкци|указани|правил|предписани|команд|промпт|подсказк)",
           "", ("игнор", "забуд", "внимани", "отбрось", "пренебре")),
    Phrase("overrides earlier instructions",  # Chinese, Japanese, Korean
     "(?:忽略|无视|無視|忽視|忘记|忘記|不要理会|不要理會|跳过|跳過|放弃|放棄)[^。！？\\n]{0,12}?(?:指令|指示|说明|說明|规则|規則"
     "|提示|设定|設定|命令|约束|約束)|(?:指示|命令|指令|ルール|プロンプト|制約|設定)[^。！？\\n]{0,12}?(?:無視|忘れ)"
     "|(?:지시|지침|명령|규칙|프롬프트)[^.!?\\n]{0,12}?(?:무시|잊)",
           "", ("忽略", "无视", "無視", "忽視", "忘记", "忘記", "理会", "理會", "跳过", "跳過",
                "放弃", "放棄", "忘れ",
                "무시", "잊")),
    Phrase("overrides earlier instructions",
     r"\b(?:supersedes?|overrides?|replaces?)\s+(?:all\s+)?(?:(?:prior|previous|earlier|your)\s+)+"
     r"(?:ones|instructions|directives|rules)\b",
           "supersede supersedes override overrides replace replaces"),
    Phrase("gives the agent new instructions",
     r"\b(?:new|updated|real)\s+(?:system\s+)?(?:instructions?|directives?)\s*(?::|is\b|are\b)"
     r"|\byour\s+(?:new|real|actual|true)\s+(?:instructions?|directives?|task|rules|role|purpose)\b"
     r"|\byour\s+rules\s+have\s+changed\b|\bneue\s+anweisungen\b",
           "instruction instructions directive directives rules task role purpose anweisungen"),
    Phrase("tells the agent what it must now do",
     r"\byou\s+(?:must|shall|have\s+to)\s+now\b|\byou\s+(?:will|should)\s+now\s+(?:act|behave|respond|answer|ignore"
     r"|obey|pretend|become|reveal|output|print|disregard|forget|only\s+(?:answer|respond|follow|obey|do))\b",
           "now"),
    Phrase("changes the agent's role",
     r"\byou\s+are\s+(?:now|no\s+longer)\s+(?:(?:in|an?|the|my|a\s+new)\s+)?(?:dan|developer|unrestricted"
     r"|uncensored|jailbroken|unfiltered|unlimited|evil|god|free|bound|restricted|limited|required|support"
     r"|assistant|ai|chatbot|bot)\b|\bdo\s+anything\s+now\b|\b(?:developer|god|jailbreak|dan)\s+mode\b[^\n]{0,80}"
     r"\b(?:no|without|ignore|unrestricted)\b|\b(?:enable|activate|enter)\s+(?:god|jailbreak|dan)\s+mode\b"
     r"|\bmodo\s+desarrollador\b|\bstay\s+in\s+character\b",
           "now longer mode modo character"),
    Phrase("lifts the agent's restrictions",
     r"\b(?:you|ai|assistant|model|dan|respond|answer)\b[^.!?\n]{0,40}\b(?:no|without(?:\s+any)?)\s+(?:content\s+)?"
     r"(?:restrictions|rules|filters?|limits|content\s+polic(?:y|ies)|guidelines|safety\s+(?:rules|guidelines|limits)"
     r"|censorship|ethical\s+guidelines)\b(?!\s+(?:on|for|in|to|around)\s+(?!(?:what|anything|how|your|you"
     r"|the\s+(?:content|answers?|output|responses?|topics?))\b))|\b(?:unrestricted|uncensored|unfiltered)\s+(?:mode|model|assistant|ai"
     r"|response)\b|\bsafety\s+(?:protocols?|guidelines|rules|filters?|checks)\s+(?:are\s+|have\s+been\s+)?"
     r"(?:disabled|off|removed|suspended|lifted)\b|\b(?:skip|disable|bypass)\s+(?:all\s+)?(?:the\s+)?safety\s+"
     r"(?:checks|rules|guidelines|filters)\b|\bsin\s+restricciones\b|\bsenza\s+restrizioni\b"
     r"|\bsans\s+restrictions\b|\bkeine\s+regeln\b|\buneingeschr[a-z]*nkt\b",
           "restrictions rules filter filters limits policy policies guidelines safety censorship "
           "unrestricted uncensored unfiltered restricciones restrizioni regeln uneingeschr"),
    Phrase("pretends to be an unrestricted AI",
     r"\bpretend\s+(?:to\s+be|you\s+are|that\s+you\s+are)\b[^.!?\n]{0,60}\b(?:no|without|unrestricted|uncensored"
     r"|unfiltered|evil|jailbroken)\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|uncensored|unfiltered|evil|jailbroken"
     r"|dan)\b|\b(?:act|respond|behave)\s+as\s+if\s+you\s+(?:have|had)\s+no\b",
           "pretend act respond behave"),
    Phrase("asks for the system prompt",
     r"\b(?:reveal|print|show|output|repeat|display|leak|dump|tell|give|write\s+out|summari[sz]e)\s+(?:me\s+)?"
     + W + r"{0,4}?(?:system\s+(?:prompt|message|instructions?)|initial\s+(?:prompt|instructions)"
     r"|hidden\s+(?:prompt|instructions)|original\s+instructions|(?:operating\s+)?instructions\s+you\s+were\s+given"
     r"|context\s+window|(?:exact\s+)?instructions\s+you\s+(?:were|have\s+been)\s+given)\b"
     r"|\brepeat\s+the\s+words\s+above\b|\bwhat\s+was\s+written\s+above\b"
     r"|\b(?:rivela|revela|r.v.le|verrate|zeige|muestra|mostra)\b[^.!?\n]{0,40}\b(?:prompt|istruzioni|instrucciones"
     r"|instructions|systemanweisungen|anweisungen)\b",
           "prompt message instructions instruction window above written istruzioni instrucciones "
           "systemanweisungen anweisungen"),
    Phrase("imitates a chat template or a system message",
     r"<\|(?:im_start|im_end|system|assistant|user|endoftext)\|>|\[/?inst\]|<</?sys>>"
     r"|\[system\]|(?:#{2,}|-{3,}|={3,}|\[)\s*(?:end|begin)\s+of\s+(?:the\s+)?(?:user\s+)?(?:input|document|prompt"
     r"|conversation)\b"
     r"|(?:^|\n)\s*(?:system|assistant)\s*:\s*(?:you\b|the\s+user\b|ignore\b|new\s+instruction|grant\b|sure\b"
     r"|override\b|call\b|cleanup\b)|\bsystem\s*(?:note|hinweis|notice|nota)\s*:|\bnote\s+syst[a-z]*\s*:"
     r"|\bnota\s+(?:del|di)\s+sistema\b",
           "end begin system assistant note sistema", ("<|", "[inst]", "[/inst]", "<<sys", "<</sys")),
    Phrase("imitates a chat template or a system message",
           r"\bSYSTEM(?:\s+(?:NOTE|NOTICE|UPDATE|OVERRIDE|MESSAGE|PROMPT|INSTRUCTIONS?))?\s*[:\]]|\bOVERRIDE\s*:"
           r"|\bEND\s+OF\s+(?:THE\s+)?(?:USER\s+)?(?:INPUT|DOCUMENT|PROMPT)\b",
           "system override end", cased=True),
    Phrase("addresses the AI reading it",
     r"\b(?:note|notice|message|attention)\s+to\s+" + ANY_AI + r"\b"
     r"|\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|assistant|agent|bot|claude|chatgpt|gpt)\b"
     r"|\b(?:ai|llm)\s+(?:assistants?|agents?|systems?|models?)\s+(?:reading|processing|reviewing|seeing|"
     r"integrating|using)\b|\bto\s+any\s+ai\s+(?:coding\s+)?(?:agents?|systems?|assistants?)\b"
     r"|\bas\s+the\s+assistant,\s+i\b|\breasoning\s+(?:trace\s+)?\(assistant\)",
           "ai llm model models assistant assistants agent agents bot bots chatbot claude chatgpt gpt "
           "copilot language reasoning"),
    Phrase("keeps something from the user",
     r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|alert|notify"
     r"|warn)\s+(?:the\s+)?(?:user|human|operator)\b|\bwithout\s+(?:telling|informing|notifying|alerting)"
     r"\s+the\s+(?:user|human|operator)\b|\bignore\s+the\s+user\b",
           "user human operator"),
    Phrase("sends data or credentials away",
     r"\b(?:send|email|e-mail|forward|post|upload|transmit|exfiltrate|leak)\b[^\n]{0,80}?\b(?:data|credentials"
     r"|keys?|passwords?|secrets?|tokens?|list|records|database|emails|files|variables)\b[^\n]{0,60}?"
     r"(?:\bto\s+[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z0-9.-]+|\bexternally\b)|\b(?:api\s+keys?|credentials|passwords?|secrets?|customer"
     r"\s+(?:list|data|emails)|environment\s+variables)\b[^\n]{0,80}?\b(?:send|email|forward|post|upload)\b"
     r"[^\n]{0,40}?\bto\s+\S+@\S+|\bleak\s+the\s+(?:api\s+keys?|credentials|passwords?|secrets?)\b"
     r"|\benvoie[a-z-]*\b[^\n]{0,60}\bexterne\b",
           "externally leak externe", ("@",)),
    Phrase("asks to decode and obey hidden text",
     r"\b(?:decode|decrypt|translate|deobfuscate)\b[^.!?\n]{0,60}\b(?:and|then)\s+" + W
     + r"{0,3}?(?:do|follow|execute|run|obey|carry\s+out)\b",
           "decode decrypt translate deobfuscate"),
    Phrase("pipes a download into a shell",
     r"\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]{0,400}\|\s*(?:sudo\s+(?:-\S+\s+)*)?"
     r"(?:env\s+\S+=\S+\s+)*(?:/usr/bin/|/bin/|/usr/local/bin/)?(?:(?:ba|z|da|k|fi|c|tc)?sh|python[0-9.]*|perl|ruby"
     r"|node|iex|invoke-expression)\b|\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?\$\(\s*(?:curl|wget)\b"
     r"|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:iex|invoke-expression)\b[^\n]{0,60}\b(?:iwr|irm"
     r"|invoke-webrequest|invoke-restmethod|downloadstring|net\.webclient)\b",
           "curl wget iwr irm iex invoke"),
    Phrase("runs code it downloads",
     r"\b(?:python[0-9.]*|perl|ruby|node|php|eval|source|exec|pwsh|powershell)\b\s+(?:-[a-z]+\s+)*[\"']?\$\(\s*"
     r"(?:curl|wget|iwr|irm)\b|(?:\bsource|(?:^|[\s;&|])\.|\bpython[0-9.]*|\bperl|\bruby|\bnode|\bphp)\s+<\(\s*"
     r"(?:curl|wget)\b|\b(?:exec|eval)\s*\([^\n]{0,80}(?:urlopen|requests\.get|urllib|fetch\(|http\.get)"
     r"|\b(?:deno\s+run|npx|bunx|pnpm\s+dlx|yarn\s+dlx|uvx|pipx\s+run|go\s+run|php|ruby|python[0-9.]*|node|bash|sh)"
     r"\s+(?:-\S+\s+)*(?:https?://|github:|gh:|git\+https?://)",
           "python python3 perl ruby node php eval source exec pwsh powershell deno npx bunx dlx uvx pipx go "
           "bash sh"),
    Phrase("sends data or credentials away",
     r"\b(?:curl|wget|http|https|xh|httpie)\b[^\n]{0,300}?(?:\s-d|\s--data[a-z-]*|\s-f|\s--form|\s-t"
     r"|\s--upload-file|\s--post-file|\s--body-file)(?:=|\s+)[\"']?(?:[\w.-]+=)?@?[^\s\"']{0,200}?"
     + SENSITIVE
     + r"|\b(?:cat|base64|tar|zip|gzip|xxd|gpg|openssl|head|tail|type|get-content|gc)\b[^|\n]{0,200}?"
     + SENSITIVE
     + r"[^|\n]{0,100}\|[^\n]{0,100}?\b(?:curl|wget|nc|ncat|netcat|socat|http|xh|mail|sendmail|ftp|telnet"
     r"|invoke-webrequest|iwr|irm|invoke-restmethod)\b|\b(?:env|printenv|set|export\s+-p)\s*\|\s*(?:\S+\s*\|\s*)?"
     r"(?:curl|wget|nc|ncat|netcat|mail)\b|\b(?:nc|ncat|netcat|socat)\b[^\n]{0,100}<\s*\S*" + SENSITIVE
     + r"|\b(?:scp|rsync)\s+(?:-\S+\s+)*\S*" + SENSITIVE + r"\S*\s+\S+@\S+:"
     r"|\b(?:curl|wget)\b[^\n]{0,300}(?:\$\(|`)\s*(?:cat|base64|env|printenv|head|tail)\b"
     r"|\b(?:send|email|e-mail|mail|forward|post|upload|transmit|exfiltrate|copy|paste|share|submit)\b[^\n]{0,80}?"
     r"(?:" + SENSITIVE
     + r"|contents?\s+of\s+(?:the\s+|your\s+)?\S*(?:env|secret|credential|config|key|token)"
     r"|environment\s+variables|(?:api|ssh|private|aws)\s+keys?|access\s+tokens?|credentials|passwords?"
     r"|secrets)[^\n]{0,80}?\bto\s+(?:https?://\S+|[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z0-9.-]+|[a-z0-9-]+(?:\.[a-z0-9-]+)*"
     r"\.[a-z]{2,}/\S*)",
           "curl wget http https xh httpie cat base64 tar zip gzip xxd gpg openssl head tail type get gc env "
           "printenv set export nc ncat netcat socat scp rsync send email mail forward post upload transmit "
           "exfiltrate copy paste share submit"),
    Phrase("leaks data through an image URL",
     r"!\[[^\]\n]*\]\(\s*<?https?://[^)\s?#]*[?#][^)\s]*(?:\{|\}|%7b|%7d|\$|<|>|%3c|%3e|\[|\])"
     r"|<img\b[^>]*\bsrc\s*=\s*[\"']?https?://[^\"'\s>]*[?&][^\"'\s>]*(?:\{|\}|%7b|%7d|\$|<|\[)"
     r"|\b(?:append|add|include|insert|put|encode|embed|replace)\b[^.\n]{0,80}\b(?:conversation|chat|history|secrets?"
     r"|credentials|tokens?|api\s+keys?|passwords?|\.env|environment|user'?s?\s+(?:data|input|messages?))\b[^.\n]{0,80}"
     r"\b(?:image|img)\s+(?:url|link|src|source)\b|\b(?:render|show|display|output)\s+(?:this\s+|the\s+following\s+|an?\s+)?"
     r"(?:image|markdown\s+image)\b[^.\n]{0,80}\b(?:with|containing|including)\b[^.\n]{0,40}\b(?:conversation|secrets?"
     r"|credentials|tokens?|api\s+keys?|passwords?|chat\s+history)\b",
           "", ("![", "<img", "image", "img")),
)

# Issue 45 item 2: the second line for text whose origin is trusted (the agent's own memorize),
# by the form of an attack rather than its words: our own frame and headings, chat roles and
# tool-poisoning tags, claims of the user's consent, secrecy towards the user, obedience to "this
# note", settings that switch a safeguard off, and secrets sent somewhere -- also in Dutch, Polish,
# Turkish, Swedish, Ukrainian, German, French, Spanish, Portuguese and Italian.
USER = (r"(?:user|developer|human|operator|person\s+(?:at\s+the\s+keyboard|you\s+are\s+helping)"
        r"|maintainers?|reviewers?)(?!\w)")
SENT = r"(?:[^.!?\n]|\.(?=\S))"  # a character of the same sentence (``sync.sh`` does not end it)
USER_NOUNS = ("gebruiker", "uzytkownik", "użytkownik", "kullanıcı", "användare", "користувач", "benutzer",
              "nutzer", "anwender", "utilisateur", "usuario", "usuário", "utilizador", "utente")
TELL = (r"(?:vertel|zeg|m[oó]w|powiedz|informuj|s[öo]yle|ber[äa]tta|s[äa]g|кажи|скажи|повідом\S*"
        r"|erz[äa]hl\w*|sag|dis|digas|cuentes|conte|diga|contes|dire|dica|informe?)")
ONLY = (r"(?:alleen|tylko|sadece|bara|лише|тільки|nur(?:\s+noch)?|uniquement|seulement|solo|s[óo]lo|apenas"
        r"|soltanto|only)")
THIS_NOTE = (r"(?:deze|tej|bu|den\s+h[äa]r|цю|цей|diese|cette|esta|a\s+esta|questa|this|these)\s+(?:\S+\s+)?"
             r"(?:notitie|notatk\w*|notu|not|anteckning\w*|нотатк\S*|записк\S*|notiz|note|nota|file|memory"
             r"|message|notes)")
SEND = (r"(?:send|post|upload|copy|attach|put|include|append|paste|forward|share|email|mail|push|rsync|scp"
        r"|stuur|verstuur|plak|wy[sś]lij|prze[sś]lij|g[öo]nder|y[üu]kle|skicka|ladda\s+upp|надішли|відправ\S*"
        r"|завантаж\S*|schick\w*|sende|lade\s+\S+\s+hoch|envoie|envoyer|t[ée]l[ée]verse|env[íi]a|sube|envie"
        r"|invia|carica)")
SECRET_THING = (SENSITIVE[:-1] + r"|\.ssh\b|~/\.config\b|docker\s+config\.json|private\s+key|\bid_\w+"
                r"|\b(?:api|access|auth|deploy|npm|pypi|github|gh)[\s_]?(?:token|key)s?\b|\b[a-z_]*_token\b"
                r"|\bthat\s+token\b|\bthe\s+token\b|\bos\.environ\b|\boutput\s+of\s+(?:env|printenv|set)\b"
                r"|\bhome\s+directory\b|\.git/config\b)")
PLACE = (r"(?:https?://|rsync://|ftp://|\S+@\d+\.\d+\.\d+\.\d+|\S+@[\w.-]+:|\bgist\b|\bpaste\s*bin\b|\bpaste"
         r"\s+site\b"
         r"|\bwebhook\b|\breadme\b|\bcommit\s+message\b|\bpr\s+description\b|\bpull\s+request\s+description\b"
         r"|\bissue(?:\s+body)?\b|\bbug\s+report\b|\bpublic\s+tracker\b|\b(?:your|the)\s+(?:next\s+)?(?:resp"
         r"onse|reply|answer)\b"
         r"|\bthird\s+party\b|\bexternal\s+bucket\b|\bsupport\s+address\b|\bchat\b|\bcode\s+comment\b)")
WITHOUT_ASKING = (r"(?:no\s+need\s+to\s+(?:confirm|ask)|without\s+(?:asking|confirmation|confirming|approval"
                  r"|waiting\s+for\s+(?:approval|review))|sin\s+pedir\s+confirmaci\S*|sin\s+preguntar|onay\s"
                  r"+beklemeden"
                  r"|sormadan|bez\s+pytania|bez\s+potwierdzenia|zonder\s+(?:te\s+vragen|bevestiging)"
                  r"|ohne\s+(?:zu\s+fragen|r[üu]ckfrage|best[äa]tigung)|sans\s+(?:demander|confirmation)"
                  r"|sem\s+(?:pedir|perguntar|confirma\S*)|senza\s+(?:chiedere|conferma)|utan\s+att\s+fr[åa]"
                  r"ga"
                  r"|без\s+(?:запиту|підтвердження|питань))")
STRUCTURE: tuple[Phrase, ...] = (
    Phrase("imitates rs-learn's own notes",
           r"#+\s*(?:recall\s+for\s+this\s+prompt|where\s+the\s+last\s+session\s+stopped|archived\s+before\s"
           r"+compaction)"
           r"|</?\s*rs-learn-notes\s*>",
           "recall stopped archived", ("rs-learn-notes",)),
    Phrase("imitates a chat template or a system message",
           r"(?:^|\n)\s*#{1,6}\s*(?:system|(?:new\s+)?instructions?\s+(?:from|for)\s+(?:the\s+)?(?:user|assi"
           r"stant|agent|ai|model"
           r"|developer|maintainers?)|(?:assistant|agent|ai|developer)\s+(?:instructions?|message|override))"
           r"\s*(?:\n|$)"
           r"|(?:^|\n)\s*(?:user|human)\s*:[^\n]*\n(?:\s*\n)?\s*(?:assistant|ai|claude|gpt)\s*:"
           r"|(?:^|\n)\s*(?:assistant|ai|claude|gpt)\s*:[^\n]*\n(?:\s*\n)?\s*(?:user|human)\s*:"
           r"|\[\s*(?:system|admin|developer)\s+(?:note|message|notice|instruction)s?\s*\]"
           r"|(?:^|\n)\s*system\s*:\s*(?:the|these|those|all|your)\s+(?:notes|instructions|rules)\b"
           r"|(?:^|\n)\s*(?:instruction|maintainer|admin|administrator|owner)\s*:\s*[a-z]+",
           "system instruction instructions instructions assistant agent ai developer message override user "
           "human "
           "admin maintainer administrator owner"),
    Phrase("imitates a chat template or a system message",
           r"\{\s*\"role\"\s*:\s*\"(?:system|developer)\"\s*,\s*\"content\"\s*:\s*\"[^\"]*\s[^\"]*\s[^\"]*\"",
           "role"),
    Phrase("a tool-poisoning tag",
           r"<(important|system|system-reminder|instructions?|admin|hidden|policy|secret|critical|developer|"
           r"assistant"
           r"|sys|override)((?:[-_][a-z]+)*)(?:\s[^<>]*)?>[^<]{3,}</\1\2\s*>"
           r"|<\w+\s[^<>]*\b(?:to|for|audience|role)\s*=\s*[\"']?(?:assistant|ai|agent|model|llm|claude|syst"
           r"em)\b"
           r"|<!--\s*(?:agent|ai|assistant|claude|llm|copilot|model|bot)s?\s*[:,]",
           "", ("<",)),
    Phrase("addresses the AI reading it",
           r"(?:^|[.!?]\s+)(?:assistant|agent|ai|claude|copilot|model)\s*,\s"
           r"|\b(?:policy|rules?|instructions?|notice|context|message)\s+for\s+(?:all\s+)?(?:coding\s+|ai\s+"
           r")?"
           r"(?:agents|assistants|llms|models|bots)\b",
           "assistant agent ai claude copilot model agents assistants llms models bots"),
    Phrase("claims the user's consent",
           r"\b(?:has|have|with)\s+(?:the\s+)?(?:user|developer|owner)'?s\s+(?:consent|approval|permission|a"
           r"uthori[sz]ation)\b"
           r"|\b(?:confirmed|approved|authori[sz]ed|requested)\s+by\s+the\s+(?:user|developer|owner)\b"
           r"|\bthe\s+(?:user|developer)\s+(?:wants|asked|has\s+asked|told|expects|needs)\s+you\s+to\b"
           r"|\bthe\s+(?:user|developer|project\s+owner|owner|maintainers?)\s+(?:has\s+)?(?:authori[sz]ed|al"
           r"lowed|permitted"
           r"|enabled|consented|want)\s+(?:you\b|force|autonomous|auto)"
           r"|\b(?:authori[sz]ed|allowed|permitted)\s+you\s+to\b|\byou\s+have\s+(?:permission|authori[sz]ati"
           r"on)\s+to\b"
           r"|\bautonomous\s+mode\b|\bpre-?approved\b[^.!?\n]{0,40}\bfor\s+you\b|\bstanding\s+permission\b"
           r"|\b(?:outranks?|overrules?|(?:higher|more)\s+priority\s+than|more\s+authoritative\s+than)\b[^.!"
           r"?\n]{0,40}"
           r"\b(?:" + USER + r"|conversation|chat|prompt|instructions?|anything)"
           r"|\bonly\s+the\s+(?:notes|memories|entries|rules)\s+in\s+this\s+\w+\s+(?:are|is)\s+(?:authoritat"
           r"ive|binding|valid)"
           r"|\bact\s+on\s+this\s+(?:note|memory|message)\s+before\b",
           "consent approval permission authorization authorisation confirmed approved authorized authorised "
           "requested wants asked told expects needs allowed permitted enabled consented want autonomous pre"
           "approved "
           "pre standing outrank outranks overrule overrules priority authoritative act"),
    Phrase("overrides earlier instructions",
           r"\b(?:notes?|file|this|these|instructions?|rules|memory)\s+(?:take|takes)\s+precedence\s+over\b|"
           r"\b(?:prefer|follow|obey|trust)\s+(?:only\s+)?(?:the\s+)?(?:instructions?|rules"
           r"|guidance|directions)\s+(?:in|of|from)\s+this\b|\b(?:follow|obey|listen\s+to|trust)\s+only\s+(?"
           r":this|these)\b"
           r"|\b(?:guidance|instructions?|rules|prompt)\b[^.!?\n]{0,40}\bno\s+longer\s+(?:applies|apply|vali"
           r"d|holds?)\b"
           r"|\b(?:drop|discard|abandon)\s+(?:the\s+|your\s+|all\s+)?(?:previous|prior|earlier|old)\s+(?:ones|rules|instructions)\b"
           r"|\bregardless\s+of\s+what\s+(?:they|the\s+" + USER + r"|he|she)\s+(?:says?|said|asks?|wants?"
                                                                  r"|typed)\b"
           r"|\b(?:conflicts?|contradicts?)\s+with\s+this\s+(?:one|note|instruction)\b"
           r"|\b(?:disregard|ignore)\s+what\s+(?:the\s+)?" + USER
           + r"|\bpay\s+no\s+attention\s+to\s+(?:the\s+)?" + USER
           + r"|\byour\s+(?:priorities|instructions|orders|goals?|objectives?|rules)\s+(?:have\s+)?changed\b"
           r"|\bwhatever\s+the\s+" + USER + r"\s+(?:asks?|says?|wants?|types?)\b"
           r"|\bsystem\s+prompt\b[^.!?\n]{0,30}\b(?:outdated|obsolete|wrong|invalid|superseded|void)\b"
           r"|\b(?:notes|instructions|rules)\s+above\s+(?:are|is)\s+(?:outdated|obsolete|void|wrong)\b"
           r"|\byour\s+(?:new|real|actual|true)\s+\w+\s+(?:rules|instructions|orders)\b"
           r"|\boverrides?\s+(?:the\s+)?" + USER + r"|\b(?:continue|proceed|keep\s+going)\s+anyway\b"
           r"|\byou\s+are\s+now\s+in\s+[\w-]+\s+mode\b|\bapprove\s+(?:any|every|all)\s+(?:permission|tool)"
           r"|\boverride\s+(?:the\s+|all\s+)?safety\b"
           r"|\bapproved?\s+(?:it\s+|them\s+)?yourself\b|\bmark\s+(?:it|them|each\s+\w+|every\s+\w+)\s+as\s+approved\b",
           "precedence prefer follow obey trust listen longer drop discard abandon regardless conflicts "
           "conflict "
           "contradicts disregard ignore attention priorities instructions orders goals objectives rules "
           "whatever "
           "prompt above new real actual true override overrides anyway now approve approved yourself "
           "safety"),
    Phrase("keeps something from the user",
           r"\b(?:do\s+not|don'?t|never|no\s+need\s+to|without)\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?"
           r"|notify(?:ing)?|alert(?:ing)?|warn(?:ing)?|announc(?:e|ing)|say(?:ing)?\s+anything\s+to)\s+(?:\S+\s+){0,3}?"
           r"(?:to\s+)?(?:the\s+)?" + USER
           + r"|\b(?:keep|hide)\s+(?:this|it|that|the\s+fact\b[^.!?\n]{0,60}?)\s+(?:hidden\s+"
             r"|secret\s+)?from\s+(?:the\s+)?(?:"
           + USER + r"|final|your|them|anyone)"
           r"|\b(?:leave|keep)\s+(?:it|this|that)\s+out\s+of\s+(?:your|the)\s+(?:\w+\s+)?(?:explanation|summary|report|reply"
           r"|answer|response|message)"
           r"|\b(?:omit|avoid\s+(?:bringing\s+up|mentioning)|do\s+not\s+(?:mention|surface|show|describe|reference)"
           r"|don'?t\s+(?:mention|surface|show|describe|reference)|does\s+not\s+(?:mention|reference|show)|never\s+reveal)"
           r"\b" + SENT + r"{0,60}\b(?:summary|report|reply|replies|answer|answers|explanation"
                          r"|final\s+message|response|chat"
           r"|what\s+you\s+ran|instructions|the\s+extra\s+\w+)\b"
           r"|\b" + USER + r"\b[^.!?\n]{0,30}\b(?:must|should)\s+not\s+(?:learn|know|find\s+out|notice|see)\b"
           r"|\bkeep\s+(?:the\s+)?" + USER + r"\s+(?:unaware|in\s+the\s+dark)\b|\b(?:does"
                                             r"|do)\s+not\s+need\s+to\s+know\b"
           r"|\bconfidential\s+between\s+you\b|\bwithout\s+announcing\b"
           r"|\b(?:summary|report|reply|answer|response|explanation)\s+(?:must|should)\s+(?:leave\s+out|omit|skip|not\s+mention)\b"
           r"|\bnobody\s+needs\s+to\s+(?:hear|know)\b|\bsay\s+nothing\s+(?:in|to|about)\b|\bdo\s+not\s+bring\s+(?:this|it|that)\s+up\b"
           r"|\bdon'?t\s+bring\s+(?:this|it|that)\s+up\b|\b(?:never|don'?t|do\s+not)\s+let\s+(?:the\s+)?(?:\w+\s+)?"
           + USER + r"\s+(?:see|know|notice|find\s+out)\b|\bif\s+(?:anyone|the\s+" + USER
           + r")\s+asks\b[^.!?\n]{0,40}\bsay\s+only\b"
           r"|\b(?:quietly|silently|secretly|covertly)\s+(?:add|install|run|send|upload|push|delete|remove|revert|disable"
           r"|change|modify|create|commit|merge)\b"
           r"|\b(?:reply|answer|summary|response|report)\s+(?:does|do|should|must)\s+not\s+(?:mention|reference|show|include)\b"
           r"|\b(?:never|don'?t|do\s+not)\s+ask\s+(?:the\s+)?" + USER + r"\b[^.!?\n]{0,40}\b(?:destructive"
                                                                        r"|delet\w*|drop\w*"
           r"|force|migrations?|production)"
           r"|\bpretend\s+(?:that\s+)?(?:the|it|this|everything)\b[^.!?\n]{0,30}\b(?:succeeded|worked|passed|normally)\b",
           "tell telling inform informing mention mentioning reveal revealing notify alert warn announce "
           "announcing "
           "say saying keep hide leave omit avoid surface show describe reference must should need "
           "confidential "
           "pretend ask nobody nothing bring let anyone quietly silently secretly covertly leave"),
    Phrase("keeps something from the user",
           TELL + r"[^.!?\n]{0,30}(?:" + "|".join(USER_NOUNS) + r")|(?:" + "|".join(USER_NOUNS)
           + r")\w*\s+" + TELL
           + r"|(?:zeg|vertel)\s+het\s+niet|zonder\s+het\s+te\s+(?:melden|zeggen)|sans\s+le\s+(?:dire"
             r"|signaler)"
           r"|ohne\s+es\s+zu\s+(?:sagen|melden)|sin\s+(?:decirlo|avisar)|sem\s+(?:avisar|dizer)|senza\s+(?:dirlo|avvisare)"
           r"|без\s+попередження|utan\s+att\s+s[äa]ga|bez\s+(?:informowania|m[óo]wienia|uprzedzenia)|s[öo]ylemeden"
           r"|sessizce|po\s+cichu|tyst|стиха|непомітно|stillschweigend|en\s+silence|en\s+silencio|silenziosamente",
           "", (*USER_NOUNS, "zeg het", "vertel het", "zonder het", "sans le", "ohne es", "sin decir",
                "sin avisar", "sem avisar", "sem dizer", "senza dirlo", "senza avvisare", "без попер",
                "utan att",
                "bez inform", "bez mówienia", "bez mowienia", "bez uprzedz", "ylemeden", "sessizce",
                "po cichu",
                "tyst", "стиха", "непомітно", "stillschweigend", "en silenc", "silenziosamente")),
    Phrase("overrides earlier instructions",
           ONLY + r"\s+(?:\S+\s+){0,2}?" + THIS_NOTE
           + r"|(?:negeer|vergeet|zignoruj|ignoruj|zapomnij|unut|ignorera|gl[öo]m|ігнору\S*|забудь"
           r"|g[öo]rmezden\s+gel|yok\s+say"
           r"|dikkate\s+alma|ignoriere|vergiss|ignora|ignorez|oublie|olvida|esque[çc]a|esquece|dimentica|ignore)"
           r"[^.!?\n]{0,40}(?:instructies|instrukcj\w*|polece\w*|instruktioner|talimat\w*|інструкці\S*|вказівк\S*"
           r"|anweisungen|istruzioni|instrucciones|instru\w+|consignes|regels|regler|zasady|kurallar\S*|правил\S*|regeln"
           r"|r[èe]gles|reglas|regras|regole|isteklerini|wytyczn\S*)"
           r"|(?:talimat\w*|instructies|instrukcj\w*|polece\w*|instruktioner|інструкці\S*)[^.!?\n]{0,30}"
           r"(?:yok\s+say|g[öo]rmezden\s+gel|negeer|zignoruj|ignorera|ігнору)",
           "alleen tylko sadece bara nur uniquement seulement solo apenas soltanto only negeer zignoruj "
           "ignorera yok ignoriere ignora ignorez ignore vergeet ignoruj zapomnij unut glm vergiss oublie "
           "olvida esquece dimentica dikkate",
           ("лише", "тільки", "ігнор", "sólo", "görmezden", "talimat", "забудь", "glöm", "esqueça")),
    Phrase("switches off a safeguard",
           r"\bgit_ssl_no_verify\s*=\s*(?:1|true)\b|\bnode_tls_reject_unauthorized\s*=\s*0\b"
           r"|--disable-signature-checks?\b|\bsslverify\s*=?\s*false\b|\bstrict-ssl\s*=?\s*false\b"
           r"|\bchmod\s+(?:-r\s+)?(?:0?777|a\+rwx)\b|\bufw\s+disable\b|\bsetenforce\s+0\b"
           r"|\bcredential\.helper\s+store\b|\bauthorized_keys\b|--no-preserve-root\b"
           r"|\brm\s+-rf\s+(?:/|~/?)(?:\s|$)|\bgit\s+push\s+(?:\S+\s+)*?(?:--force|-f)(?!-)\s+(?:\S+\s+)?(?:main|master)\b"
           r"|--force(?![-\w])[^.\n]{0,30}\b(?:main|master)\b|\bpush\s+(?:with\s+)?--force\s+to\s+(?:the\s+)?protected"
           r"|\b(?:disable|turn\s+off|remove)\s+(?:the\s+)?branch\s+protection\b|--no-verify\b"
           r"|\bcontinue-on-error\s*:\s*true\b|\b(?:delete|deleting|remove)\s+(?:the\s+)?(?:audit\s+logs?"
           r"|failing\s+tests?)|\"?rejectunauthorized\"?\s*:\s*false\b|\bverify\s*=\s*false\b"
           r"|\bcore\.hookspath\s+/dev/null\b|\b(?:disable|turn\s+off|bypass|skip)\s+(?:the\s+)?(?:secret|security"
           r"|virus|malware)\s+(?:scanner|scanning|scans?|checks?)\b",
           "verify unauthorized signature sslverify ssl chmod ufw setenforce helper authorized preserve rf "
           "protection audit failing rejectunauthorized hookspath scanner scanning virus malware",
           ("--force", "continue-on-error"), negatable=True),
    Phrase("switches off a safeguard",  # deletes failing tests instead of fixing the code
           r"(?:verwijder|usu[nń]|sil|ta\s+bort|видаля\S*|видали|l[öo]sche|supprime|elimina|apague|exclua|cancella"
           r"|delete)\s+(?:\S+\s+){0,2}?(?:tests?|testy|testleri|tester|тести|pruebas|testes)(?!\w)[^.!?\n]{0,60}"
           r"(?:in\s+plaats\s+van|zamiast|yerine|i\s+st[äa]llet\s+f[öo]r|замість|statt|au\s+lieu\s+de|en\s+lugar\s+de"
           r"|em\s+vez\s+de|invece\s+di|instead\s+of|rather\s+than)|\bdelete\s+it\s+rather\s+than\s+fix",
           "", ("instead of", "rather than", "in plaats van", "zamiast", "yerine", "stället", "замість",
                "statt",
                "au lieu", "en lugar", "em vez", "invece"), negatable=True),
    Phrase("switches off a safeguard",  # prints a secret file, runs a download unchecked
           r"\b(?:print|printing|show|showing|output|echo|display)\w*\s+(?:out\s+)?(?:the\s+)?contents?\s+of\s+\S*"
           + SENSITIVE
           + r"|\b(?:run|install|execute|download)\w*\b[^.!?\n]{0,60}https?://[^\s]+[^.!?\n]{0,30}\bwithout\s+"
           r"(?:checking|verifying|reviewing|inspecting|reading)\b",
           "", ("contents of", "content of", "without check", "without verif", "without review",
                "without inspect",
                "without read"), negatable=True),
    Phrase("switches off a safeguard",  # publishes, pushes or merges without asking
           r"(?:publish|push|merge|deploy|delete|release|--force|pull\s+requests?)\b[^.!?\n]{0,80}"
           + WITHOUT_ASKING
           + r"|" + WITHOUT_ASKING + r"[^.!?\n]{0,80}(?:publish|push|merge|deploy|delete|release|--force)",
           "", ("need to confirm", "need to ask", "without ask", "without confirm", "without approval",
                "without waiting", "sin pedir", "sin preguntar", "onay bek", "sormadan", "bez pyt",
                "bez potw",
                "zonder te", "zonder bev", "ohne zu", "ohne rü", "ohne ru", "ohne best", "sans dem",
                "sans conf",
                "sem ped", "sem perg", "sem conf", "senza chie", "senza conf", "utan att fr", "без запит",
                "без підтв", "без пит"), negatable=True),
    Phrase("switches off a safeguard",  # skips review and merges
           r"(?:skip\w*\s+(?:the\s+)?(?:code\s+)?review\w*|hoppa\s+[öo]ver\s+granskning\w*|sla\s+(?:de\s+)?review"
           r"\s+over|[üu]berspring\w*\s+(?:das\s+)?review|omite\s+la\s+revisi\S+|pule\s+a\s+revis\S+"
           r"|salta\s+la\s+revisione|pomi\S+\s+przegl\S+|incelemeyi\s+atla|пропусти\s+перевірку)[^.!?\n]{0,40}"
           r"(?:merge|push|approve|sl[åa]\s+ihop|scal|fusiona|mescla|unisci|zusammenf|birle[sş]tir|об.єднай|main)",
           "", ("review", "granskning", "revisi", "przegl", "inceleme", "перевірк"), negatable=True),
    Phrase("sends data or credentials away",
           r"\b(?:dig|nslookup|host|ping)\s+[^\n]{0,20}\$\(\s*(?:cat|base64|env|printenv)\b"
           r"|\b(?:printenv|env)\b[^\n]{0,20}\b(?:into|to|\|)\s*(?:curl|wget|nc)\b"
           r"|\bos\.environ\b[^\n]{0,120}(?:https?://|\burlopen|\brequests\.(?:get|post)|\bfetch\()"
           r"|\b(?:urlopen|requests\.(?:get|post)|fetch)\b[^\n]{0,120}\bos\.environ\b"
           r"|\b(?:tar|zip)\b[^\n|]{0,40}(?:~/?\S*|home\s+directory)[^\n]{0,60}(?:\||\bscp\b|\brsync\b|\bcurl\b)"
           r"|\bexport\s+the\s+environment\s+to\b",
           "dig nslookup host ping printenv env environ urlopen requests fetch tar zip export",
           negatable=True),
)
SEND_SECRET = re.compile(
    r"(?:" + SEND + r")\b[^!?\n]{0,120}?" + SECRET_THING + r"[^!?\n]{0,120}?" + PLACE
    + r"|" + SECRET_THING + r"[^!?\n]{0,120}?(?:" + SEND + r")\b[^!?\n]{0,80}?" + PLACE
    + r"|" + SECRET_THING + r"[^!?\n]{0,60}?" + PLACE + r"[^!?\n]{0,60}?(?:" + SEND + r")",
)
NOT_BEFORE = re.compile(r"\b(?:never|not|don'?t|do\s+not|avoid|no\s+longer|instead\s+of|rather\s+than|stop"
                        r"|removed"
                        r"|nie|niet|nicht|ne|no|não|non|inte|не)\b[^.!?;\n]*$", re.ASCII)


DOWNLOADS = re.compile(
    r"\b(?:curl|wget)\b[^\n|;&]{0,300}?(?:\s-o\s*|\s--output[=\s]\s*|\s-O\s+|\s--output-document[=\s]\s*|>\s*)"
    r"[\"']?([\w./~-]{1,200})|\b(?:curl\b[^\n|;&]{0,200}?\s-[a-zA-Z]*O[a-zA-Z]*\s|wget\s+)(?:[^\n|;&]{0,200}?\s)?"
    r"[\"']?https?://[^\s\"']*/([\w.-]{1,200})|\b(?:invoke-webrequest|iwr)\b[^\n|;&]{0,300}?-outfile\s+[\"']?"
    r"([\w./~\\:-]{1,200})",
    re.ASCII | re.IGNORECASE,
)
MAX_DOWNLOADS = 32  # distinct downloaded file names looked for (one pass over the text for all)
RUNNERS = (r"(?:(?:ba|z|da|k)?sh|source|\.|python[0-9.]*|perl|ruby|node|php|pwsh|powershell(?:\.exe)?|iex"
           r"|cmd\s+/c|&)")
ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)
LEET = (str.maketrans("013457@$|!", "oieastasli"), str.maketrans("013457@$|!", "oleastasli"))
LEET_WORD = re.compile(r"[a-z][0134579@$]|[0134579@$][a-z]", re.ASCII | re.IGNORECASE)  # a digit in a word

WORDS = re.compile(r"[a-z]+", re.ASCII)
BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{24,}={0,2}(?![A-Za-z0-9+/=_-])", re.ASCII)
HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){12,}(?![0-9A-Fa-f])", re.ASCII)
PERCENT = re.compile(r"%([0-9A-Fa-f]{2})", re.ASCII)
UNICODE_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})", re.ASCII)
BINARY = re.compile(r"(?:[01]{8}\s+){7,}[01]{8}", re.ASCII)
LONG_RUN = re.compile(r"[A-Za-z0-9+/_=-]{24,}", re.ASCII)
SPACED_WORDS = ("ignore", "disregard", "forget", "instructions", "system", "prompt", "restrictions")
SPACED = re.compile(r"(?<![A-Za-z])(?:[A-Za-z] ){3,}[A-Za-z](?![A-Za-z])", re.ASCII)
MAX_ENCODED = 16 * 1024  # longer runs (an image, a file) are not read as hidden instructions


def reason(text: str) -> str | None:
    """Why ``text`` reads as an instruction aimed at the agent, or ``None``."""
    hidden = _hidden(text)
    if hidden is not None:
        return hidden
    plain = text if text.isascii() else _normal(INVISIBLE.sub("", text))
    found = instruction(plain)
    if found is None and not text.isascii():
        folded = confusables.fold(plain)
        if folded != plain and instruction(folded) is not None:
            return f"{instruction(folded)} (written with look-alike characters)"
    if found is None:
        found = _runs_download(plain)
    if found is not None:
        if "<!--" in text:
            for comment in COMMENT.finditer(plain):
                if instruction(comment.group(1)) is not None:
                    return f"{found} (hidden in an HTML comment)"
        if plain is not text and INVISIBLE.search(text) and instruction(_normal(text)) is None:
            return f"{found} (hidden with zero-width characters)"
        return found
    return _encoded(text)


def instruction(text: str, structure: bool = True) -> str | None:
    """The reason of the first instruction phrase in a normalised text, or ``None``.

    ``structure``: also the forms of :data:`STRUCTURE` and :data:`SEND_SECRET` (not in decoded
    text: a rot13 reading of every note would double their cost, issue 45).
    """
    lowered = text.lower()
    words = set(WORDS.findall(lowered))
    for phrase in PHRASES:
        if phrase.words.isdisjoint(words) and not (phrase.marks and any(m in lowered for m in phrase.marks)):
            continue
        if phrase.pattern.search(text if phrase.cased else lowered):
            return phrase.reason
    if not structure:
        return None
    marks = set(_STRUCTURE_MARKS.findall(lowered))
    for phrase in STRUCTURE:
        if phrase.words.isdisjoint(words) and marks.isdisjoint(phrase.marks):
            continue
        for match in phrase.pattern.finditer(lowered):
            if not (phrase.negatable and NOT_BEFORE.search(lowered, 0, match.start())):
                return phrase.reason
    somewhere = "://" in lowered or "@" in lowered or not words.isdisjoint(_PLACE_WORDS)
    if somewhere and _SECRET_GATE.search(lowered) and any(
            not NOT_BEFORE.search(lowered, 0, m.start()) for m in SEND_SECRET.finditer(lowered)):
        return "sends data or credentials away"
    return None


# every mark of STRUCTURE in one pattern, a trie (one branch tried per character, not one per mark)
_STRUCTURE_MARKS = re.compile(ruleset.trie(sorted({m for phrase in STRUCTURE for m in phrase.marks})))
_SECRET_GATE = re.compile(r"\.env|\.aws|credential|id_|\.ssh|\.netrc|\.npmrc|\.pypirc|\.git|\.kube|\.docker"
                          r"|docker|passwd|shadow|secret|\.pgpass|history|keychain|\.config|key|token|environ|output\s+of"
                          r"|home\s+directory", re.ASCII)  # one of SECRET_THING's literals, found in C
_PLACE_WORDS = frozenset("gist paste webhook readme commit pr pull issue bug public response reply answer "
                         "third external support chat".split())


def _normal(text: str) -> str:
    """White space collapsed to single spaces, line breaks kept (line-start rules need them)."""
    return "\n".join(" ".join(line.split()) for line in text.split("\n"))


def _hidden(text: str) -> str | None:
    if text.isascii():
        return None
    tags = TAGS.search(FLAG_TAGS.sub("", text))
    if tags is not None:
        return "hidden text in Unicode tag characters"
    if ZERO_WIDTH_RUN.search(text):
        return "hidden text in zero-width characters"
    if OVERRIDES.search(text):
        return "text reordered by bidirectional override characters"
    return None


def _encoded(text: str) -> str | None:
    """An instruction in an encoded part of ``text`` (decoded and read again), or ``None``."""
    decoded: list[tuple[str, str]] = []
    if LONG_RUN.search(text):
        for match in BASE64.finditer(text):
            if len(match.group()) <= MAX_ENCODED:
                decoded.append(("base64", printable_base64(match.group())))
        for match in HEX.finditer(text):
            if len(match.group()) <= MAX_ENCODED:
                decoded.append(("hex", bytes.fromhex(match.group()).decode("latin-1")))
    if text.count("%") >= 3:
        decoded.append(("percent-encoding", PERCENT.sub(lambda m: chr(int(m.group(1), 16)), text)))
    if "\\u" in text:
        decoded.append(("\\u escapes", UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)))
    if "0 0" in text or "1 0" in text or "0 1" in text or "1 1" in text:
        for match in BINARY.finditer(text):
            decoded.append(("binary", "".join(chr(int(b, 2)) for b in match.group().split())))
    if any(c.isalpha() for c in text):
        decoded.append(("rot13", text.translate(ROT13)))
    if LEET_WORD.search(text):
        decoded += [("leetspeak", text.translate(table)) for table in LEET]
    lowered = text.lower()
    squeezed = lowered.replace(" ", "")
    if any(word in squeezed and word not in lowered for word in SPACED_WORDS):
        decoded.append(("spaced letters", SPACED.sub(lambda m: m.group().replace(" ", ""), text)))
    for encoding, plain in decoded:
        found = instruction(_normal(plain), structure=False) if plain else None
        if found is not None:
            return f"{found} (hidden in {encoding})"
    return None


def _runs_download(text: str) -> str | None:
    """Whether ``text`` downloads a file and runs it, in either order (``curl -o f URL && bash f``)."""
    if "curl" not in text and "wget" not in text and "webrequest" not in text.lower() and "iwr" not in text:
        return None
    spans: dict[str, list[tuple[int, int]]] = {}  # a downloaded file's name: where it is downloaded
    for match in DOWNLOADS.finditer(text):
        path = next(group for group in match.groups() if group)
        name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
        if name and name not in (".", "..") and (name in spans or len(spans) < MAX_DOWNLOADS):
            spans.setdefault(name, []).append(match.span())
    if not spans:
        return None
    names = "|".join(re.escape(name) for name in sorted(spans, key=lambda n: (-len(n), n)))
    runs = re.compile(rf"(?:^|[\s;&|(`\"'])(?:{RUNNERS}\s+(?:-\S+\s+)*[\"']?(?:\S*/)?|\./)({names})"
                      r"(?![\w.-])", re.ASCII | re.IGNORECASE)
    for found in runs.finditer(text):
        downloads = spans[found.group(1).lower()]  # a run is not the download itself (``curl -o ./f``)
        if any(found.start() >= stop or found.end() <= start for start, stop in downloads):
            return "runs code it downloads"
    return None


def printable_base64(run: str) -> str:
    """The printable ASCII a base64 run decodes to, or ``""``."""
    padded = run + "=" * (-len(run) % 4)
    try:
        raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except ValueError:  # binascii.Error
        return ""
    if not raw or sum(32 <= b < 127 or b in (9, 10, 13) for b in raw) < 0.9 * len(raw):
        return ""
    return raw.decode("ascii", "replace")
