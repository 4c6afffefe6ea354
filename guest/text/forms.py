"""Irregular English word forms and their lemma's stem (generated: ``scripts/gen_word_forms.py``).

9,289 forms the light stemmer does not conflate with their lemma (``broke``, ``broken`` ->
``break``; ``children`` -> ``child``; ``making`` -> ``make``), from the lexicon of lemminflect
0.2.3 (MIT), derived from the NLM SPECIALIST Lexicon; provenance in ``models/README.md``. Read
by :func:`guest.text.stem.stem_form`: the keyword terms of stores of terms version 2.

:data:`TABLE` lists each target term followed by its forms, one group per line.
"""

from __future__ import annotations

TABLE = """\
abacus abaci
abase abased abases abasing
abash abashes
abate abated abating
abbreviate abbreviated abbreviating
abdicate abdicated abdicating
abdomen abdomina
abide abided abiding
abjure abjured abjuring
able abler ablest
abnegate abnegated abnegating
abolish abolishes
abominate abominated abominating
abrade abraded abrading
abridge abridged abridging
abrogate abrogated abrogating
abrupt abrupter abruptest
abscissa abscissae
absolve absolved absolving
abuse abused abuses abusing
acanthus acanthi
accede acceded acceding
accelerate accelerated accelerating
accentuate accentuated accentuating
acclimate acclimated acclimating
acclimatise acclimatised acclimatises acclimatising
acclimatize acclimatized acclimatizes acclimatizing
accommodate accommodated accommodating
accompany accompanied
accomplish accomplishes
accrue accrued accruing
accumulate accumulated accumulating
accuse accuses accusing
ace aced acing
ache ached aching
achieve achieved achieving
achy achier achiest
acidify acidified
acknowledge acknowledged acknowledging
acquiesce acquiesced acquiescing
acquire acquired acquiring
activate activated activating
actualise actualised actualises actualising
actualize actualized actualizes actualizing
actuate actuated actuating
acupuncture acupunctured acupuncturing
acute acuter acutest
add added adding
addendum addenda
addle addled addling
adduce adduced adducing
adequate adequated adequating
adhere adhered adhering
adieu adieus adieux
adjudge adjudged adjudging
adjudicate adjudicated adjudicating
adjure adjured adjuring
adman admen
administrate administrated administrating
admire admired admiring
admonish admonishes
adore adored adoring
adulate adulated adulating
adulterate adulterated adulterating
adumbrate adumbrated adumbrating
advance advanced advancing
advantage advantaged advantaging
adventure adventured adventuring
advertise advertised advertises
advertize advertized advertizes
advise advised advises advising
advocate advocated advocating
aerate aerated aerating
aerie aeries
affiliate affiliated affiliating
age aged
agglomerate agglomerated agglomerating
agglutinate agglutinated agglutinating
aggrandise aggrandised aggrandises aggrandising
aggrandize aggrandized aggrandizes aggrandizing
aggravate aggravated aggravating
aggregate aggregated aggregating
aggrieve aggrieved aggrieving
agitate agitated agitating
agonise agonised agonises agonising
agonize agonized agonizes agonizing
agree agreed agreeing
ai ais
airbrush airbrushes
airman airmen
airy airier airiest
alderman aldermen
alderwoman alderwomen
alga algae
alia aliased aliases aliasing
alibi alibis
alienate alienated alienating
alight alit
aline alined alining
alkali alkalies alkalis
allege alleged alleging
alleviate alleviated alleviating
allocate allocated allocating
allude alluded alluding
allure allured alluring
alluvium alluvia
ally allied
alphabetise alphabetised alphabetises alphabetising
alphabetize alphabetized alphabetizes alphabetizing
alternate alternated alternating
alumna alumnae
alumnus alumni
amalgamate amalgamated amalgamating
amanuensis amanuenses
amaze amazed amazes amazing
amble ambled ambling
ambush ambushes
ameba amebae
ameliorate ameliorated ameliorating
amniocentesis amniocenteses
amoeba amoebae
amortise amortised amortises amortising
amortize amortized amortizes amortizing
ample ampler amplest
amplify amplified
amputate amputated amputating
amuse amused amuses amusing
analyse analysed analysing
analyze analyzed analyzes analyzing
anathema anathemata
anchorman anchormen
angioplasty angioplastied
angle angled angling
angry angrier angriest
animate animated animating
annihilate annihilated annihilating
annotate annotated annotating
announce announced announcing
annul annulled annulling
antagonise antagonised antagonises antagonising
antagonize antagonized antagonizes antagonizing
ante anted anting
antedate antedated antedating
antenna antennae
anthrax anthraces
anti antis
antic anticses
anticipate anticipated anticipating
antifreeze antifreezes
antiquate antiquated antiquating
antithesis antitheses
anus ani
aorta aortae
ap applied applying
ape aped aping
apex apices
aphelion aphelia
apocalypse apocalypses
apologia apologiae
apologise apologised apologises apologising
apologize apologized apologizes apologizing
apotheosis apotheoses
apparatus apparati
apparel apparelled apparelling
appease appeased appeases appeasing
appendicitis appendicitides
appendix appendices
appraise appraised appraises appraising
appreciate appreciated appreciating
apprentice apprenticed apprenticing
apprise apprised apprises apprising
apprize apprized apprizes apprizing
approach approaches
appropriate appropriated appropriating
approve approved approving
approximate approximated approximating
apt apter aptest
aqua aquae
aquaplane aquaplaned aquaplaning
aquarium aquaria
arbitrate arbitrated arbitrating
arboretum arboreta
arc arcked arcking
arch arches
archdiocese archdioceses
archipelago archipelagoes
archive archived archiving
area areae
argue argued arguing
arise arisen arises arising arose
armadillo armadilloes
armful armsful
arouse aroused arouses arousing
arrange arranged arranging
arrive arrived arriving
arrogate arrogated arrogating
arse arses
arteriosclerosis arterioscleroses
arthritis arthritides
article articled articling
articulate articulated articulating
ary arieses
ascribe ascribed ascribing
ash ashes
ashy ashier ashiest
asphyxiate asphyxiated asphyxiating
aspirate aspirated aspirating
aspire aspired aspiring
assassinate assassinated assassinating
assemble assembled assembling
assemblyman assemblymen
assemblywoman assemblywomen
asseverate asseverated asseverating
assimilate assimilated assimilating
assize assizes
associate associated associating
assuage assuaged assuaging
assume assumed assuming
assure assured assuring
astonish astonishes
atherosclerosis atheroscleroses
atla atlases
atonal atonaler atonalest
atone atoned atoning
atrium atria
atrophy atrophied
attach attaches
attenuate attenuated attenuating
attire attired attiring
attitudinise attitudinised attitudinises attitudinising
attitudinize attitudinized attitudinizes attitudinizing
attribute attributed attributing
attune attuned attuning
auditorium auditoria
aura aurae
aureola aureolae
authenticate authenticated authenticating
authorise authorised authorises authorising
authorize authorized authorizes authorizing
automate automated automating
automaton automata
autopsy autopsied
avalanche avalanched avalanching
avenge avenged avenging
average averaged averaging
avocado avocadoes
awake awaking awoke awoken
awe awed
ayu ayus
babble babbled babbling
baby babied
bacillus bacilli
backbite backbit backbiting backbitten
backdate backdated backdating
backfire backfired
backlash backlashes
backpedal backpedalled backpedalling
backslide backslid backslidden backsliding
backspace backspaced backspacing
backwash backwashes
badge badged badging
baffle baffled baffling
baggy baggier baggiest
bake baked baking
balance balanced balancing
bald balder baldest
bale baled baling
balky balkier balkiest
ballyhoo ballyhooed ballyhooing
balmy balmier balmiest
bamboozle bamboozled bamboozling
bandage bandaged bandaging
bandy bandied
banish banishes
banjo banjoes
banshie banshies
baptise baptised baptises baptising
baptize baptized baptizes baptizing
barbecue barbecued barbecuing
bare bared barer barest baring
barge barged barging
barman barmen
barrage barraged barraging
barrel barrelled barrelling
barricade barricaded barricading
base based baser basest basing
baseman basemen
bash bashes
basso bassi
bastardise bastardised bastardises bastardising
bastardize bastardized bastardizes bastardizing
baste basted
batch batches
bate bated bating
bathhouse bathhouses
batsman batsmen
battle battled battling
batty battier battiest
bawdy bawdier bawdiest
bayou bayous
beach beaches
beady beadier beadiest
bear born borne
beat beaten
beatify beatified
beau beaus beaux
beautify beautified
become became becoming
bedazzle bedazzled bedazzling
bedevil bedevilled bedevilling
beech beeches
beef beeves
beefy beefier beefiest
beetle beetled beetling
befall befallen befell
befuddle befuddled befuddling
beget begot begotten
begin began begun
begrudge begrudged begrudging
beguile beguiled beguiling
behave behaved behaving
behold beheld
behoove behooved behooving
behove behoved behoving
bel bellied bellying
belch belches
believe believed believing
belittle belittled belittling
bellyache bellyached bellyaching
bemuse bemused bemuses bemusing
bench benches
benefice beneficed beneficing
berate berated berating
bereave bereaving bereft
berry berried
beseech beseeches besought
besiege besieged besieging
besmirch besmirches
bespeak bespoke bespoken
bestride bestrid bestridden bestriding bestrode betrode
bevel bevelled bevelling
bewitch bewitches
bia biased biases biasing biassed biasses biassing
bicep bicepses
bicycle bicycled bicycling
bid bade bidden
bide bided biding
bifurcate bifurcated bifurcating
big bigger biggest
bike biked biking
bikini bikinis
binge binged binging
biopsy biopsied
birch birches
birdie birdies
bitch bitches
bitchy bitchier bitchiest
bite biting bitten
bitter bitterer bitterest
bivalve bivalved bivalving
bivouac bivouacked bivouacking
black blacker blackest
blame blamed blaming
blanch blanches
bland blander blandest
blare blared blaring
blaspheme blasphemed blaspheming
blaze blazed blazes blazing
ble bled
bleach bleaches
bleak bleaker bleakest
bleary blearier bleariest
blemish blemishes
blench blenches
blend blent
bless blest
blind blinder blindest
blockade blockaded blockading
blockhouse blockhouses
bloody bloodied bloodier bloodiest
blotch blotches
blotchy blotchier blotchiest
blouse bloused blouses blousing
blow blew blown
blowtorch blowtorches
blue blued blueer blueest bluing
bluefish bluefishes
bluenose bluenoses
bluff bluffed bluffing
blunt blunter bluntest
blurry blurrier blurriest
blush blushes
boatman boatmen
bobsl bobsledded
bode boding
boggle boggled boggling
boggy boggier boggiest
bola bolases
bold bolder boldest
bondsman bondsmen
bone boned boning
boney boneyer boneyest
bongo bongoes
bony bonier boniest
boo booed booing
bookie bookies
bookshelf bookshelves
bootie booties
booze boozed boozes boozing
bore bored boring
bossy bossier bossiest
botch botches
bottle bottled bottling
bounce bounced bouncing
bouncy bouncier bounciest
bourgeoisie bourgeoisies
bowman bowmen
boycott boycotted boycotting
brace braced bracing
brainwash brainwashes
brainy brainier brainiest
braise braised braises braising
brake braked braking
brakeman brakemen
branch branches
brandish brandishes
brash brasher brashest
brassy brassier brassiest
bratty brattier brattiest
bravado bravadoes
brave braved braver bravest braving
bravo bravoes
brawny brawnier brawniest
bre bred
breach breaches
break broke broken
breathe breathed
breathy breathier breathiest
breeze breezed breezes breezing
breezy breezier breeziest
bribe bribed bribing
bridge bridged bridging
bridle bridled bridling
brief briefer briefest
briefcase briefcases
bright brighter brightest
brine brined brining
bring brought
briny brinier briniest
brisk brisker briskest
brist bristlier bristliest
bristle bristled bristling
brittle brittler brittlest
broach broaches
broad broader broadest
broadside broadsided broadsiding
brocade brocaded brocading
bronchitis bronchitides
bronchus bronchi
brontosaurus brontosauri
bronze bronzed bronzes bronzing
brooch brooches
browbeat browbeaten
brown browner brownest
brownie brownies
browse browsed browses browsing
bruise bruised bruises bruising
brunch brunches
brush brushes
brusk brusker bruskest
brusque brusqueer brusqueest
brutalise brutalised brutalises brutalising
brutalize brutalized brutalizes brutalizing
bub bubblier bubbliest
bubble bubbled bubbling
bucketful bucketsful
buckle buckled buckling
bucktooth buckteeth
buddy buddied
budge budged budging
budgie budgies
buff buffed buffing
buffalo buffaloes
buggy buggier buggiest
build built
bul bullied bullying
bulge bulged bulging
bulgy bulgier bulgiest
bulky bulkier bulkiest
bulldoze bulldozed bulldozes bulldozing
bullfinch bullfinches
bullrush bullrushes
bulrush bulrushes
bumble bumbled bumbling
bumpy bumpier bumpiest
bunch bunches
bundle bundled bundling
bungl bunglinged bunglinging
bungle bungled
bur burlier burliest
bureau bureaus bureaux
burglarize burglarized burglarizes burglarizing
burgle burgled burgling
burlesque burlesqued burlesquing
burn burnt
burnish burnishes
burnoose burnooses
burr burred burring
bursitis bursitides
bury buried
bus bussed busses bussing
bush bushes
bushman bushmen
bushy bushier bushiest
businessman businessmen
businesswoman businesswomen
bustle bustled bustling
busy busied busier busiest
butch butches
butt butted butting
buttery butterier butteriest
buttonhole buttonholed buttonholing
buxom buxomer buxomest
buy bought
cable cabled cabling
caboose cabooses
cache cached caching
cackle cackled cackling
cactus cacti
cadaver cadavera
cadge cadged cadging
caduceus caducei
cage caged caging
cajole cajoled cajoling
cake caked caking
calabash calabashes
calcify calcified
calcine calcined calcining
calculate calculated calculating
calculus calculi
calibrate calibrated calibrating
calico calicoes
calm calmer calmest
calumniate calumniated calumniating
calve calved
camera camerae
camouflage camouflaged camouflaging
campus campi
canal canalled canalling
cancel cancelled cancelling
candelabrum candelabra
candidate candidated candidating
candle candled candling
candy candied
cane caned caning
cannibalise cannibalised cannibalises cannibalising
cannibalize cannibalized cannibalizes cannibalizing
canny cannier canniest
canoe canoed
canonise canonised canonises canonising
canonize canonized canonizes canonizing
canopy canopied
canva canvased canvases canvasing
capitalise capitalised capitalises capitalising
capitalize capitalized capitalizes capitalizing
capitulate capitulated capitulating
capri capris
capsule capsuled capsuling
captivate captivated captivating
capture captured capturing
carbonate carbonated carbonating
carcinoma carcinomata
care cared caring
cargo cargoes
caribou caribous
caricature caricatured caricaturing
carol carolled carolling
carouse caroused carouses carousing
carpus carpi
carry carried
carve carved
cascade cascaded cascading
case cased cases
cash cashes
castigate castigated castigating
castle castled castling
castrate castrated castrating
catalogue catalogued cataloguing
catalyse catalysed catalysing
catalyze catalyzed catalyzes catalyzing
catch catches caught
catchphrase catchphrases
catchy catchier catchiest
catechize catechized catechizes catechizing
categorise categorised categorises categorising
categorize categorized categorizes categorizing
catfish catfishes
catharsis catharses
cattleman cattlemen
cause caused causes causing
cauterise cauterised cauterises cauterising
cauterize cauterized cauterizes cauterizing
cavalryman cavalrymen
cave caved caving
caveman cavemen
cavil cavilled cavilling
cease ceased ceases ceasing
cede ceded ceding
celebrate celebrated celebrating
cellulose celluloses
censure censured censuring
centralise centralised centralises centralising
centralize centralized centralizes centralizing
centre centred centring
centrifuge centrifuged centrifuging
cerebellum cerebella
cerebrum cerebra
cerise cerises
certificate certificated certificating
certify certified
cervix cervices
chafe chafed
chaff chaffed chaffing
chaffinch chaffinches
chairman chairmen
chairwoman chairwomen
chaise chaises
chalky chalkier chalkiest
challenge challenged challenging
chance chanced chancing
chancy chancier chanciest
change changed changing
channel channelled channelling
characterise characterised characterises characterising
characterize characterized characterizes characterizing
charge charged charging
charisma charismata
charwoman charwomen
chase chased chases chasing
chastise chastised chastises chastising
chatty chattier chattiest
cheap cheaper cheapest
checkmate checkmated checkmating
cheese cheeses
cheesy cheesier cheesiest
chemise chemises
cherish cherishes
chessman chessmen
chewy chewier chewiest
chide chid chidded chidden chided chiding
chil chillier chilliest
child children
childproof childproofer childproofest
chimaera chimaerae
chime chimed chiming
chimera chimerae
chisel chiselled chiselling
chlorinate chlorinated chlorinating
choice choicer choicest
choke choked choking
cholera cholerae
choose chooses choosing chose chosen
choppy choppier choppiest
chronicle chronicled chronicling
chrysalis chrysalides
chubby chubbier chubbiest
chuckle chuckled chuckling
chunky chunkier chunkiest
church churches
churchman churchmen
chute chuted chuting
cicada cicadae
cilium cilia
cinch cinches
circle circled circling
circularise circularised circularises circularising
circularize circularized circularizes circularizing
circulate circulated circulating
circumcise circumcised circumcises circumcising
circumnavigate circumnavigated circumnavigating
circumscribe circumscribed circumscribing
cirrhosis cirrhoses
cirrus cirri
cite cited citing
civil civiller civillest
civilise civilised civilises civilising
civilize civilized civilizes civilizing
clammy clammier clammiest
clarify clarified
clarion clarioner clarionest
clash clashes
classy classier classiest
clause clauses
clean cleanest
cleanse cleansed cleanses cleansing
clear clearer clearest
clearinghouse clearinghouses
cleave cleaved cleaving cloven
clench clenches
clergyman clergymen
clergywoman clergywomen
clever cleverer cleverest
clinch clinches
cling clung
clingy clingier clingiest
clitoris clitorides
clone cloned
close closed closes closest
closure closured closuring
clothe clothed
cloudy cloudier cloudiest
clubhouse clubhouses
clue clued cluing
clumsy clumsier clumsiest
clunky clunkier clunkiest
clutch clutches
coach coaches
coagulate coagulated coagulating
coalesce coalesced coalescing
coarse coarser coarsest
cobble cobbled cobbling
coccus cocci
coccyx coccyges
cochlea cochleae
cockroach cockroaches
cocky cockier cockiest
coddle coddled coddling
code coded
codex codices
codfish codfishes
codify codified
coerce coerced coercing
cogitate cogitated cogitating
cognomen cognomina
cohere cohered cohering
coincide coincided coinciding
coke coked coking
cold colder coldest
colitis colitides
collaborate collaborated collaborating
collapse collapsed collapses collapsing
collate collated collating
collectivise collectivised collectivises collectivising
collectivize collectivized collectivizes collectivizing
collide collided colliding
collie collies
colloquium colloquia
collude colluded colluding
colonise colonised colonises colonising
colonize colonized colonizes colonizing
colonoscopy colonoscopied
colossus colossi
coma comae
combine combined combining
come came comites
comfy comfier comfiest
commando commandoes
commemorate commemorated commemorating
commence commenced commencing
commentate commentated commentating
commercialise commercialised commercialises commercialising
commercialize commercialized commercializes commercializing
commiserate commiserated commiserating
common commonest
commune communed communing
communicate communicated communicating
commute commuted commuting
comp complied complying
compare compared comparing
compartmentalise compartmentalised compartmentalises compartmentalising
compartmentalize compartmentalized compartmentalizes compartmentalizing
compel compelled compelling
compendium compendia
compensate compensated compensating
compete competed competing
compile compiled compiling
complete completed completing
complicate complicated complicating
compose composed composes composing
composite composited compositing
comprise comprised comprises comprising
comprize comprized comprizes comprizing
compromise compromised compromises compromising
compromize compromized compromizes compromizing
compute computed computing
computerise computerised computerises computerising
computerize computerized computerizes computerizing
concatenate concatenated concatenating
concede conceded conceding
conceive conceived conceiving
concentrate concentrated concentrating
conceptualise conceptualised conceptualises conceptualising
conceptualize conceptualized conceptualizes conceptualizing
concerto concerti
conch conches
conciliate conciliated conciliating
conclude concluded concluding
concrete concreted concreting
condense condensed condenses condensing
condole condoled condoling
condone condoned condoning
conduce conduced conducing
cone coned coning
confederate confederated confederating
confide confided confiding
configure configured configuring
confine confined confining
confiscate confiscated confiscating
confuse confused confuses confusing
confute confuted confuting
conglomerate conglomerated conglomerating
congratulate congratulated congratulating
congregate congregated congregating
conjecture conjectured conjecturing
conjugate conjugated conjugating
conjunctivitis conjunctivitides
conjure conjured conjuring
connive connived conniving
connote connoted connoting
conquistador conquistadores
consecrate consecrated consecrating
conserve conserved conserving
consist consisteded consisteding
console consoled consoling
consolidate consolidated consolidating
consortium consortia
conspire conspired conspiring
constipate constipated constipating
constitute constituted constituting
construe construed construing
consume consumed consuming
consummate consummated consummating
contaminate contaminated contaminating
contemplate contemplated contemplating
continue continued continuing
continuum continua
contravene contravened contravening
contribute contributed contributing
contrive contrived contriving
control controlled controlling
contuse contused contuses contusing
convalesce convalesced convalescing
convene convened convening
converge converged converging
converse conversed converses conversing
convince convinced convincing
convoke convoked convoking
convulse convulsed convulses convulsing
coo cooed cooing
cool coolest
cooperate cooperated cooperating
coordinate coordinated coordinating
cope coped
coppice coppiced coppicing
copula copulae
copulate copulated copulating
copy copied
core cored coring
cornea corneae
cornish cornishes
cornstarch cornstarches
corny cornier corniest
corona coronae
corpse corpses
corpus corpora
corral corralled corralling
correct correctlier correctliest
corroborate corroborated corroborating
corrode corroded corroding
corrugate corrugated corrugating
cortex cortices
coruscate coruscated coruscating
cosmo cosmoses
cost costlier costliest
costume costumed costuming
cosy cosier cosiest
coterie coteries
couch couches
councilman councilmen
councilwoman councilwomen
counsel counselled
countenance countenanced countenancing
counterbalance counterbalanced counterbalancing
countersink countersank countersunk
countryman countrymen
countrywoman countrywomen
couple coupled
course coursed coursing
court courtlier courtliest
courthouse courthouses
coy coyer coyest
cozy cozier coziest
crabby crabbier crabbiest
crack cracklier crackliest
crackle crackled crackling
cradle cradled cradling
craftsman craftsmen
crafty craftier craftiest
craggy craggier craggiest
crane craned craning
cranium crania
crankcase crankcases
cranky crankier crankiest
crape craped craping
crappy crappier crappiest
crash crashes
crass crasser crassest
crate crated crating
crave craved
crawfish crawfishes
crayfish crayfishes
craze crazed crazes crazing
crazy crazier craziest
creaky creakier creakiest
creamy creamier creamiest
crease creased creases creasing
create created creating
credential credentialled
creep crept
creepy creepier creepiest
cremate cremated cremating
crematorium crematoria
creosote creosoted creosoting
crepe creped creping
crescendo crescendi crescendoes
crewman crewmen
cringe cringed cringing
crink crinklier crinkliest
crinkle crinkled crinkling
cripple crippled crippling
crisis crises
crisp crisper crispest
crispy crispier crispiest
criterion criteria
criticise criticised criticises criticising
criticize criticized criticizes criticizing
critique critiqued critiquing
crocus croci
cross crossest
crotch crotches
crouch crouches
crucify crucified
crude cruder crudest
cruel crueler cruelest crueller cruellest
cruise cruised cruises cruising
crumb crumblier crumbliest
crumble crumbled crumbling
crumple crumpled crumpling
crunch crunches
crunchy crunchier crunchiest
crusade crusaded crusading
crush crushes
crusty crustier crustiest
crutch crutches
crux cruces
cry cried
cube cubed cubing
cuckoo cuckooed cuckooing
cud cuddlier cuddliest
cuddle cuddled cuddling
cudgel cudgelled cudgelling
cue cued
cuff cuffed cuffing
culminate culminated culminating
cultivate cultivated cultivating
culture cultured culturing
cumulus cumuli
cupful cupsful
cur curlier curliest
curate curated curating
curdle curdled curdling
cure cured curing
curie curies
curriculum curricula
curry curried
curse cursed curses cursing
curt curter curtest
curtsy curtsied
curve curved curving
curvy curvier curviest
cushy cushier cushiest
customise customised customises customising
customize customized customizes customizing
cute cuter cutest
cuttlefish cuttlefishes
cycle cycled cycling
cyclop cyclopses
dabble dabbled dabbling
dado dadoes
dainty daintier daintiest
dairyman dairymen
dal dallied dallying
damage damaged damaging
damn damndest damneder damnedest
damp dampest
dance danced dancing
dandy dandier dandiest
dangle dangled dangling
dank danker dankest
dapple dappled dappling
dare dared daring
dark darker darkest
dash dashes
database databases
date dated dating
dawdle dawdled dawdling
daylight daylit
daze dazed dazes dazing
dazzle dazzled dazzling
deactivate deactivated deactivating
dead deader deadest deadlier deadliest
deaf deafer deafest
deal dealt
dear dearer dearest
debase debased debases debasing
debate debated debating
debauch debauches
debilitate debilitated debilitating
decaffeinate decaffeinated decaffeinating
decapitate decapitated decapitating
decease deceased deceases deceasing
deceive deceived deceiving
decelerate decelerated decelerating
decentralise decentralised decentralises decentralising
decentralize decentralized decentralizes decentralizing
decide decided deciding
decimate decimated decimating
declare declared declaring
declassify declassified
decline declined declining
decode decoded decoding
decolonise decolonised decolonises decolonising
decolonize decolonized decolonizes decolonizing
decompose decomposed decomposes decomposing
decontaminate decontaminated decontaminating
decorate decorated decorating
decrease decreased decreases decreasing
decree decreed decreeing
decriminalise decriminalised decriminalises decriminalising
decriminalize decriminalized decriminalizes decriminalizing
decry decried
dedicate dedicated dedicating
deduce deduced deducing
deep deeper deepest
deescalate deescalated deescalating
deface defaced defacing
defaecate defaecated defaecating
defame defamed defaming
defecate defecated defecating
defense defenses
defile defiled defiling
define defined defining
deflate deflated deflating
defoliate defoliated defoliating
deft defter deftest
defuse defused defuses defusing
defy defied
degenerate degenerated degenerating
degrade degraded degrading
dehumanise dehumanised dehumanises dehumanising
dehumanize dehumanized dehumanizes dehumanizing
dehumidify dehumidified
dehydrate dehydrated dehydrating
deice deiced deicing
deify deified
delegate delegated delegating
delete deleted deleting
deli delis
deliberate deliberated deliberating
delineate delineated delineating
delirium deliria
delphinium delphinia
delude deluded deluding
deluge deluged deluging
delve delved delving
demagnetise demagnetised demagnetises demagnetising
demagnetize demagnetized demagnetizes demagnetizing
demarcate demarcated demarcating
demilitarise demilitarised demilitarises demilitarising
demilitarize demilitarized demilitarizes demilitarizing
demise demised demises demising
demobilise demobilised demobilises demobilising
demobilize demobilized demobilizes demobilizing
democratise democratised democratises democratising
democratize democratized democratizes democratizing
demolish demolishes
demonstrate demonstrated demonstrating
demoralise demoralised demoralises demoralising
demoralize demoralized demoralizes demoralizing
demote demoted demoting
den dentes
denature denatured denaturing
denigrate denigrated denigrating
denominate denominated denominating
denote denoted denoting
denounce denounced denouncing
dense denser densest
denude denuded denuding
deny denied
deodorise deodorised deodorises deodorising
deodorize deodorized deodorizes deodorizing
departmentalise departmentalised departmentalises departmentalising
departmentalize departmentalized departmentalizes departmentalizing
deplete depleted depleting
deplore deplored deploring
depoliticise depoliticised depoliticises depoliticising
depoliticize depoliticized depoliticizes depoliticizing
depopulate depopulated depopulating
depose deposed deposes deposing
deprave depraved depraving
deprecate deprecated deprecating
depreciate depreciated depreciating
deprive deprived depriving
depute deputed deputing
deputise deputised deputises deputising
deputize deputized deputizes deputizing
derange deranged deranging
deregulate deregulated deregulating
deride derided deriding
derive derived deriving
dermatitis dermatitides
derogate derogated derogating
desalinate desalinated desalinating
describe described describing
descry descried
desecrate desecrated desecrating
desegregate desegregated desegregating
desensitise desensitised desensitises desensitising
desensitize desensitized desensitizes desensitizing
deserve deserved deserving
desiccate desiccated desiccating
desideratum desiderata
designate designated designating
desire desired desiring
desolate desolated desolating
despatch despatches
desperado desperadoes
despise despised despises despising
destabilise destabilised destabilises destabilising
destabilize destabilized destabilizes destabilizing
destine destined destining
detach detaches
deteriorate deteriorated deteriorating
determinate determinated determinating
determine determined determining
dethrone dethroned dethroning
detonate detonated detonating
detoxify detoxified
deuterium deuteria
devalue devalued devaluing
devastate devastated devastating
deviate deviated deviating
devil devilled devilling
devise devised devises devising
devolve devolved devolving
devote devoted devoting
dewy dewier dewiest
diaeresis diaereses
diagnose diagnosed diagnosing
dial dialled dialling
dialogue dialogued dialoguing
dialysis dialyses
dibble dibbled dibbling
dice diced dicing
dicey dicier diciest
dictate dictated dictating
dictum dicta
die died dying
dieresis diereses
differentiate differentiated differentiating
diffuse diffused diffuses diffusing
dig dug
digitise digitised digitises digitising
digitize digitized digitizes digitizing
dignify dignified
dike diked diking
dilate dilated dilating
dilemma dilemmata
dilettante dilettanti
dilute diluted diluting
dim dimmest
diminish diminishes
dimple dimpled dimpling
dine dined dining
dingo dingoes
dingy dingier dingiest
diocese dioceses
diploma diplomata
dire direr direst
dirty dirtied dirtier dirtiest
dis dissed dissing
disable disabling
disabuse disabused disabuses disabusing
disadvantage disadvantaged disadvantaging
disagree disagreed disagreeing
disambiguate disambiguated disambiguating
disapprove disapproved disapproving
disarrange disarranged disarranging
disassemble disassembled disassembling
disassociate disassociated disassociating
disbelieve disbelieved disbelieving
disburse disbursed disburses disbursing
discharge discharged discharging
discipline disciplined disciplining
disclose disclosed discloses disclosing
discommode discommoded discommoding
discompose discomposed discomposes discomposing
discontinue discontinued discontinuing
discountenance discountenanced discountenancing
discourage discouraged discouraging
discourse discoursed discourses discoursing
discriminate discriminated discriminating
discus disci
disease diseases
disembody disembodied
disembowel disembowelled disembowelling
disenfranchise disenfranchised disenfranchises disenfranchising
disengage disengaged disengaging
disentangle disentangled disentangling
disestablish disestablishes
disfigure disfigured disfiguring
disfranchise disfranchised disfranchises disfranchising
disgorge disgorged disgorging
disgrace disgraced disgracing
disguise disguised disguises disguising
dish dishes
dishevel dishevelled dishevelling
disincline disinclined disinclining
disintegrate disintegrated disintegrating
dislike disliked disliking
dislocate dislocated dislocating
dislodge dislodged dislodging
dismantle dismantled dismantling
disoblige disobliged disobliging
disorganise disorganised disorganises disorganising
disorganize disorganized disorganizes disorganizing
disparage disparaged disparaging
dispatch dispatches
dispel dispelled dispelling
dispense dispensed dispenses
disperse dispersed disperses dispersing
displace displaced displacing
displease displeased displeases displeasing
dispose disposed disposes disposing
disproportionate disproportionated disproportionating
disprove disproved disproven disproving
disputant disputanter disputantest
dispute disputed disputing
disqualify disqualified
disrobe disrobed disrobing
dissatisfy dissatisfied
dissemble dissembled dissembling
disseminate disseminated disseminating
dissimulate dissimulated dissimulating
dissipate dissipated dissipating
dissociate dissociated dissociating
dissolve dissolved dissolving
dissuade dissuaded dissuading
distance distanced distancing
distinct distincter distinctest
distinguish distinguishes
distribute distributed distributing
disunite disunited disuniting
disuse disused disuses disusing
ditch ditches
ditto dittoes
dive dived diving
diverge diverged diverging
diversify diversified
divide divided dividing
divine divined divining
divorce divorced divorcing
divulge divulged divulging
divvy divvied
dizzy dizzier dizziest
do done
dodge dodged dodging
dodo dodoes
doff doffed doffing
dogfish dogfishes
doggy doggier doggiest
doghouse doghouses
dogma dogmata
dol dollied dollying
dole doled doling
dollhouse dollhouses
dome domed doming
domesticate domesticated domesticating
domicile domiciled domiciling
dominate dominated dominating
domino dominoes
donate donated donating
doodle doodled doodling
doorman doormen
dope doped doping
dopey dopeyer dopeyest
dopy dopier dopiest
dormouse dormice
dosage dosaged dosaging
dose dosed
dote doted doting
dotty dottier dottiest
double doubled
douche douched
doughty doughtier doughtiest
doughy doughier doughiest
dour dourer dourest
douse doused douses dousing
dowdy dowdier dowdiest
dowel dowelled dowelling
downgrade downgraded downgrading
downsize downsized downsizes downsizing
downstage downstaged downstaging
downy downier downiest
dowse dowsed dowses dowsing
doze dozed dozes dozing
drab drabber drabbest
drachma drachmae drachmai
drafty draftier draftiest
dramatise dramatised dramatises dramatising
dramatize dramatized dramatizes dramatizing
drape draped draping
draughty draughtier draughtiest
draw drawn drew
dream dreamt
dreamy dreamier dreamiest
dreary drearier dreariest
dredge dredged dredging
drench drenches
dribble dribbled dribbling
drink drank
drive driven driving
drivel drivelled drivelling
drizzle drizzled drizzling
drone droned droning
droopy droopier droopiest
drowse drowsed drowses drowsing
drowsy drowsier drowsiest
drudge drudged drudging
drunk drunker drunkest
dry dried driest
duel duelled duelling
dull duller dullest
dumb dumber dumbest
dumpy dumpier dumpiest
duodenum duodena
dupe duped duping
duplex duplices
duplicate duplicated duplicating
dusky duskier duskiest
dustman dustmen
dusty dustier dustiest
dwarf dwarfer dwarfest dwarves
dwell dwelt
dwindle dwindled dwindling
dye dyed
dyke dyked dyking
dynamite dynamited dynamiting
dyspepsia dyspepsiae
ear earlier earliest
earthy earthier earthiest
ease eased eases easing
easy easier easiest
eat ate eaten
ebb ebbed ebbing
echo echoes
eclipse eclipsed eclipses eclipsing
economise economised economises economising
economize economized economizes economizing
eczema eczemata
eddy eddied
edema edemata
edge edged edging
edify edified
editorialise editorialised editorialises editorialising
editorialize editorialized editorializes editorializing
educate educated educating
eerie eerieer eerieest
eery eerier eeriest
efface effaced effacing
effectuate effectuated effectuating
effeminate effeminated effeminating
effervesce effervesced effervescing
egg egged egging
ejaculate ejaculated ejaculating
eke eked eking
elaborate elaborated elaborating
elapse elapsed elapses elapsing
elate elated elating
electrify electrified
electrocute electrocuted electrocuting
electrolysis electrolyses
electroplate electroplated electroplating
elevate elevated elevating
elf elves
elide elided eliding
eliminate eliminated eliminating
elongate elongated elongating
elope eloped eloping
elucidate elucidated elucidating
elude eluded eluding
emaciate emaciated emaciating
emanate emanated emanating
emancipate emancipated emancipating
emasculate emasculated emasculating
emb embedded
embargo embargoes
embellish embellishes
embezzle embezzled embezzling
embody embodied
embrace embraced embracing
embryo embryoes
emerge emerged emerging
emigrate emigrated emigrating
emissary emissarier emissariest
emote emoted emoting
empathise empathised empathises empathising
empathize empathized empathizes empathizing
emphasis emphases
emphasise emphasised emphasises emphasising
emphasize emphasized emphasizes emphasizing
emphysema emphysemata
emporium emporia
empty emptied emptiest
emu emus
emulate emulated emulating
emulsify emulsified
enable enabled enabling
enamel enamelled enamelling
encapsulate encapsulated encapsulating
encase encased encases encasing
encephalitis encephalitides
encircle encircled encircling
enclose enclosed encloses enclosing
encode encoded
encore encored encoring
encourage encouraged encouraging
encroach encroaches
endorse endorsed endorses endorsing
endue endued enduing
endure endured enduring
enema enemata
energise energised energises energising
energize energized energizes energizing
enervate enervated enervating
enfeeble enfeebled enfeebling
enforce enforced enforcing
enfranchise enfranchised enfranchises enfranchising
engage engaged engaging
engorge engorged engorging
engrave engraved
enhance enhanced enhancing
enigma enigmata
enlarge enlarged enlarging
enmesh enmeshes
ennoble ennobled ennobling
enquire enquired enquiring
enrage enraged enraging
enrapture enraptured enrapturing
enrich enriches
ensconce ensconced ensconcing
ensemble ensembled ensembling
enshrine enshrined enshrining
enslave enslaved enslaving
ensnare ensnared ensnaring
ensue ensued ensuing
ensure ensured ensuring
entangle entangled entangling
enterprise enterprises
enterprize enterprizes
enthrone enthroned enthroning
enthuse enthused enthuses enthusing
entice enticed enticing
entitle entitled entitling
entrance entranced entrancing
entrench entrenches
entwine entwined entwining
enumerate enumerated enumerating
enunciate enunciated enunciating
envisage envisaged envisaging
envy envied
epidermis epidermides
epiglottis epiglottides
epitomise epitomised epitomises epitomising
epitomize epitomized epitomizes epitomizing
equal equalled equalling
equalise equalised equalises equalising
equalize equalized equalizes equalizing
equate equated equating
equilibrium equilibria
equivocate equivocated equivocating
eradicate eradicated eradicating
erase erased erases erasing
erode eroded eroding
err erred erring
erratum errata
escalate escalated escalating
escape escaped escaping
esophagus esophagi
espouse espoused espouses espousing
espy espied
esquire esquired esquiring
establish establishes
estimate estimated estimating
estrange estranged estranging
etch etches
eucalyptus eucalypti
eulogize eulogized eulogizes eulogizing
evacuate evacuated evacuating
evade evaded evading
evaluate evaluated evaluating
evangelize evangelized evangelizes evangelizing
evaporate evaporated evaporating
eventuate eventuated eventuating
evidence evidenced evidencing
evince evinced evincing
eviscerate eviscerated eviscerating
evoke evoked evoking
evolve evolved evolving
ex exes
exacerbate exacerbated exacerbating
exact exacter exactest
exaggerate exaggerated exaggerating
examine examined examining
exasperate exasperated exasperating
excavate excavated excavating
exce exceeded exceeding
excel excelled excelling
exchange exchanged exchanging
excise excised excises excising
excite excited exciting
excize excized excizes excizing
exclude excluded excluding
excommunicate excommunicated excommunicating
excoriate excoriated excoriating
excrete excreted excreting
excretion excreta
exculpate exculpated exculpating
excuse excused excuses excusing
execrate execrated execrating
execute executed executing
executrix executrices
exegesis exegeses
exemplify exemplified
exercise exercised exercises exercising
exercize exercized exercizes exercizing
exhale exhaled exhaling
exhilarate exhilarated exhilarating
exhume exhumed exhuming
exile exiled exiling
exonerate exonerated exonerating
exorcise exorcised exorcises exorcising
exorcize exorcized exorcizes exorcizing
expanse expanses
expatiate expatiated expatiating
expatriate expatriated expatriating
expectorate expectorated expectorating
expedite expedited expediting
expel expelled expelling
expense expenses
experience experienced experiencing
expertise expertised expertises expertising
expertize expertized expertizes expertizing
expiate expiated expiating
expire expired expiring
explicate explicated explicating
explode exploded exploding
explore explored exploring
expose exposed exposes exposing
expostulate expostulated expostulating
expropriate expropriated expropriating
expunge expunged expunging
expurgate expurgated expurgating
extemporize extemporized extemporizes extemporizing
extenuate extenuated extenuating
exterminate exterminated exterminating
extinguish extinguishes
extirpate extirpated extirpating
extol extolled extolling
extradite extradited extraditing
extrapolate extrapolated extrapolating
extricate extricated extricating
extrude extruded extruding
exude exuded exuding
eye eyed eying
eyeful eyesful
eyelash eyelashes
eyrie eyries
fabricate fabricated fabricating
face faced
facilitate facilitated facilitating
factorise factorised factorises factorising
factorize factorized factorizes factorizing
fade faded fading
fain fainer fainest
faint fainter faintest
fair fairer fairest
fake faked faking
falsify falsified
fame famed faming
familiarise familiarised familiarises familiarising
familiarize familiarized familiarizes familiarizing
famish famishes
fancy fancied fanciest
fantasise fantasised fantasises fantasising
fantasize fantasized fantasizes fantasizing
fantasy fantasied
far farther farthest furthest
fare fared faring
farmhouse farmhouses
fascinate fascinated fascinating
fast faster fastest
fat fatter fattest
fate fated fating
fatigue fatigued fatiguing
fatty fattier fattiest
faulty faultier faultiest
fauna faunae
faze fazed fazes fazing
feature featured featuring
federate federated federating
fee feeing
feeble feebler feeblest
feed fed
feisty feistier feistiest
femur femora
fence fenced fencing
ferrule ferruled ferruling
ferry ferried
fertilise fertilised fertilises fertilising
fertilize fertilized fertilizes fertilizing
fetch fetches
fetich fetiches
fetish fetishes
fettle fettled fettling
fetus feti
few fewer fewest
fez fezzes
fiasco fiascoes
fiat fiant
fibula fibulae
fictionalise fictionalised fictionalises fictionalising
fictionalize fictionalized fictionalizes fictionalizing
fid fiddlier fiddliest
fiddle fiddled fiddling
fierce fiercer fiercest
fiery fierier fieriest
fight fought
figure figured figuring
filch filches
file filed
filmy filmier filmiest
filthy filthier filthiest
filtrate filtrated filtrating
finalise finalised finalises finalising
finalize finalized finalizes finalizing
finance financed
finch finches
fine fined finer finest fining
finesse finessed finesses finessing
finish finishes
fire fired
firehouse firehouses
fireman firemen
firm firmer firmest
fish fishes
fisherman fishermen
fishy fishier fishiest
fissure fissured fissuring
fit fittest
fixate fixated fixating
fizzle fizzled fizzling
fizzy fizzier fizziest
flabby flabbier flabbiest
flagellate flagellated flagellating
flagellum flagella
flagstaff flagstaves
flake flaked flaking
flakey flakeyer flakeyest
flaky flakier flakiest
flame flamed flaming
flamingo flamingoes
flange flanged flanging
flare flared flaring
flash flashes
flashy flashier flashiest
flat flattest
flatfish flatfishes
flatfoot flatfeet
flee fled fleeing
fleece fleeced fleecing
fleecy fleecier fleeciest
flesh fleshes
fleshy fleshier fleshiest
flighty flightier flightiest
flimsy flimsier flimsiest
flinch flinches
fling flung
flinty flintier flintiest
flip flippest
floodlight floodlit
flophouse flophouses
floppy floppier floppiest
flora florae
flounce flounced flouncing
flourish flourishes
fluctuate fluctuated fluctuating
fluff fluffed fluffing
fluffy fluffier fluffiest
flukey fluky
fluky flukey
fluoresce fluoresced fluorescing
fluoridate fluoridated fluoridating
fluoroscope fluoroscoped fluoroscoping
flurry flurried
flush flushes
flute fluted fluting
fly flew flied flown
flyleaf flyleaves
foamy foamier foamiest
focus foci focussed focusses focussing
foetus foeti
foggy foggier foggiest
folksy folksier folksiest
fond fonder fondest
fondle fondled fondling
foot feet
footman footmen
footnote footnoted footnoting
forage foraged foraging
forbear forbore forborne
forbid forbad forbade forbidden
force forced forcing
forcep forcepses forcipes
foreclose foreclosed forecloses foreclosing
foreman foremen
foresee foresaw foreseeing foreseen
foretaste foretasted foretasting
foretell foretold
forewoman forewomen
forge forged forging
forget forgot forgotten
forgive forgave forgiven forgiving
formalise formalised formalises formalising
formalize formalized formalizes formalizing
formula formulae
formulate formulated formulating
fornicate fornicated fornicating
forsake forsaken forsaking forsook
fortify fortified
forum fora
fossilise fossilised fossilises fossilising
fossilize fossilized fossilizes fossilizing
foul fouler foulest
foxy foxier foxiest
fraca fracases
fracture fractured fracturing
frail frailer frailest
frame framed framing
franchise franchised franchises franchising
frank franker frankest
fraternise fraternised fraternises fraternising
fraternize fraternized fraternizes fraternizing
frazzle frazzled frazzling
freaky freakier freakiest
freckle freckled freckling
free freed freeer freeest freeing
freebase freebased freebases freebasing
freebie freebies
freedman freedmen
freelance freelanced freelancing
freeze freezes froze frozen
fresco frescoes
fresh freshest
freshman freshmen
fricassee fricasseed fricasseeing
friend friendlier friendliest
fril frillier frilliest
fringe fringed fringing
frizzle frizzled frizzling
frizzy frizzier frizziest
frogman frogmen
frolic frolicked frolicking
frontiersman frontiersmen
frosty frostier frostiest
frothy frothier frothiest
frowsy frowsier frowsiest
frowzy frowzier frowziest
fructify fructified
fructose fructoses
fruity fruitier fruitiest
frumpy frumpier frumpiest
frustrate frustrated frustrating
fry fried
fuddle fuddled fuddling
fudge fudged
fuel fuelled fuelling
fulcrum fulcra
full fullest
fulminate fulminated fulminating
fumble fumbled fumbling
fume fumed fuming
fumigate fumigated fumigating
fungus fungi
funky funkier funkiest
funnel funnelled funnelling
funny funnier funniest
furbish furbishes
furnish furnishes
furry furriest
fuse fused fuses fusing
fussy fussier fussiest
fuzzy fuzzier fuzziest
gabble gabbled gabbling
gage gaged gaging
gainsay gainsaid
galvanise galvanised galvanises galvanising
galvanize galvanized galvanizes galvanizing
gamble gambled gambling
gambol gambolled gambolling
game gamed gamer gamest gaming
gangrene gangrened gangrening
gape gaped gaping
garage garaged garaging
garble garbled garbling
gargle gargled gargling
garnish garnishes
garnishee garnisheed garnisheeing
garote garoted garoting
garotte garotted garotting
garrote garroted garroting
garrotte garrotted garrotting
gas gassed gasses gassing
gash gashes
gassy gassier gassiest
gastritis gastritides
gate gated gating
gauche gaucher gauchest
gaudy gaudier gaudiest
gauge gauged gauging
gaunt gaunter gauntest
gauze gauzed gauzes gauzing
gawky gawkier gawkiest
gay gayer gayest
gaze gazed gazes gazing
gazette gazetted gazetting
gecko geckoes
generalise generalised generalises generalising
generalize generalized generalizes generalizing
generate generated generating
genesis geneses
genie genies
gentle gentled gentler gentlest gentling
gentleman gentlemen
gentlewoman gentlewomen
gentrify gentrified
genus genera
germinate germinated germinating
gestate gestated gestating
gesticulate gesticulated gesticulating
gesture gestured gesturing
get got gotten
ghast ghastlier ghastliest
ghetto ghettoes
gibe gibed gibing
giddy giddier giddiest
giggle giggled giggling
gingivitis gingivitides
gird girt
girdle girdled girdling
give gave giving
glad gladder gladdest
gladiolus gladioli
glamorise glamorised glamorises glamorising
glamorize glamorized glamorizes glamorizing
glamourise glamourised glamourises glamourising
glamourize glamourized glamourizes glamourizing
glance glanced glancing
glare glared glaring
glassful glassesful
glassy glassier glassiest
glaucoma glaucomata
glaze glazed glazes
glib glibber glibbest
glide glided gliding
glimpse glimpsed glimpses glimpsing
glissando glissandi
glitch glitches
glitzy glitzier glitziest
gloomy gloomier gloomiest
glorify glorified
glory gloried
glottis glottides
glove gloved gloving
glucose glucoses
glue glued gluing
gluey glueyer glueyest gluier gluiest
glum glummer glummest
gnash gnashes
gnu gnus
go goes going gone went
goalie goalies
gobble gobbled gobbling
godchild godchildren
goggle goggled goggling
golden goldener goldenest
goldfinch goldfinches
goldfish goldfishes
gonorrhea gonorrheae
gonorrhoea gonorrhoeae
good goodlier goodliest
gooey gooier gooiest
google googled googling
goose geese goosed gooses goosing
gore gored goring
gorge gorged gorging
gory gorier goriest
gouge gouged gouging
goulash goulashes
gouty goutier goutiest
grace graced gracing
grade graded
graduate graduated graduating
graffito graffiti
grainy grainier grainiest
grand grander grandest
grandchild grandchildren
granulate granulated granulating
grapple grappled grappling
grassy grassier grassiest
grate grated
gratify gratified
grave graver gravest
gravel gravelled gravelling
gravitate gravitated gravitating
gray grayer grayest
graze grazed grazes grazing
grease greased greases greasing
greasy greasier greasiest
great greater greatest
greedy greedier greediest
green greener greenest
greenhouse greenhouses
grey greyer greyest
grieve grieved grieving
grim grimmer grimmest
grimace grimaced grimacing
grime grimed griming
grimy grimier grimiest
gripe griped griping
gritty grittier grittiest
groggy groggier groggiest
groove grooved grooving
groovy groovier grooviest
grope groped groping
gross grosser grossest
grouch grouches
grouchy grouchier grouchiest
grouse groused grouses grousing
grovel grovelled grovelling
grow grew grown
grubby grubbier grubbiest
grudge grudged grudging
gruff gruffer gruffest
grumble grumbled grumbling
grumpy grumpier grumpiest
guarantee guaranteed guaranteeing
guardsman guardsmen
guide guided guiding
guillotine guillotined guillotining
guilty guiltier guiltiest
guise guised guises guising
gummy gummier gummiest
gunman gunmen
gurgle gurgled gurgling
guru gurus
gush gushes
gusto gustoes
gusty gustier gustiest
gutsy gutsier gutsiest
guzzle guzzled guzzling
gybe gybed gybing
gymnasium gymnasia
gyrate gyrated gyrating
habituate habituated habituating
hackle hackled hackling
haemorrhage haemorrhaged haemorrhaging
haggle haggled haggling
hairbrush hairbrushes
hairy hairier hairiest
halfpenny halfpence
halitosis halitoses
hallucinate hallucinated hallucinating
halo haloes
halve halved halving
hamstr hamstringing hamstrung
handcuff handcuffed handcuffing
handful handsful
handkerchief handkerchieves
handle handled
handsome handsomer handsomest
handy handier handiest
handyman handymen
hang hung
hangman hangmen
happy happier happiest
harangue harangued haranguing
hard harder hardest
hardy hardier hardiest
hare hared haring
harmonise harmonised harmonises harmonising
harmonize harmonized harmonizes harmonizing
harry harried
harsh harsher harshest
hash hashes
hassle hassled hassling
hasty hastier hastiest
hatch hatches
hate hated hating
haughty haughtier haughtiest
haunch haunches
haze hazed hazes hazing
hazy hazier haziest
headline headlined headlining
heady headier headiest
healthy healthier healthiest
hear heard
hearse hearses
hearty heartier heartiest
heave heaved heaving hove
heavy heavier heaviest
heckle heckled heckling
hedge hedged hedging
hefty heftier heftiest
helix helices
hellenise hellenised hellenises hellenising
hellenize hellenized hellenizes hellenizing
helmsman helmsmen
hemorrhage hemorrhaged hemorrhaging
henchman henchmen
hepatitis hepatitides
herdsman herdsmen
hernia herniae
hero heroes
hesitate hesitated hesitating
hew hewn
hibernate hibernated hibernating
hide hid hidden hiding
hie hied hying
high higher highest
highwayman highwaymen
hike hiked hiking
hil hillier hilliest
hinge hinged hinging
hip hipper hippest
hippopotamus hippopotami
hippy hippier hippiest
hire hired hiring
hitch hitches
hitchhike hitchhiked hitchhiking
hive hived hiving
hoarse hoarser hoarsest
hoary hoarier hoariest
hobble hobbled hobbling
hobbyhorse hobbyhorses
hobo hoboes
hoe hoed
hold held
hole holed holing
hollow hollower hollowest
holy holier holiest
home homed homelier homeliest homing
homey homeyer homeyest
homogenise homogenised homogenises homogenising
homogenize homogenized homogenizes homogenizing
homy homier homiest
hone honed honing
honorarium honoraria
hoof hooves
hope hoped hoping
hopscotch hopscotches
horny hornier horniest
horrify horrified
horse horsed horses horsing
horseman horsemen
horsewoman horsewomen
horsey horsy
horsy horsey
hose hosed hoses hosing
hospitalise hospitalised hospitalises hospitalising
hospitalize hospitalized hospitalizes hospitalizing
hot hotter hottest
hothouse hothouses
house housed houses
huddle huddled huddling
huff huffed huffing
huge huger hugest
humanise humanised humanises humanising
humanize humanized humanizes humanizing
humble humbled humbler humblest humbling
humerus humeri
humidify humidified
humiliate humiliated humiliating
hunch hunches
hungry hungrier hungriest
huntsman huntsmen
hurdle hurdled hurdling
hurry hurried
hurtle hurtled hurtling
hush hushes
husky huskier huskiest
hustle hustled hustling
hutch hutches
hybridise hybridised hybridises hybridising
hybridize hybridized hybridizes hybridizing
hydra hydrae
hydrate hydrated hydrating
hydrogenate hydrogenated hydrogenating
hydrolysis hydrolyses
hydroplane hydroplaned hydroplaning
hype hyped hyping
hyperventilate hyperventilated hyperventilating
hyphenate hyphenated hyphenating
hypnosis hypnoses
hypnotise hypnotised hypnotises hypnotising
hypnotize hypnotized hypnotizes hypnotizing
hypotenuse hypotenuses
hypothalamus hypothalami
hypothenuse hypothenuses
hypothesis hypotheses
hypothesise hypothesised hypothesises hypothesising
hypothesize hypothesized hypothesizes hypothesizing
hysteresis hystereses
ice iced
icy icier iciest
id ids
idealise idealised idealises idealising
idealize idealized idealizes idealizing
identify identified
idle idled idler idlest idling
idolise idolised idolises idolising
idolize idolized idolizes idolizing
iffy iffier iffiest
ignite ignited igniting
ignore ignored ignoring
ill iller illest
illuminate illuminated illuminating
illumine illumined illumining
illustrate illustrated illustrating
image imaged
imagine imagined imagining
imb imbedded imbedding
imbecilic imbecilicer imbecilicest
imbibe imbibed imbibing
imbue imbued imbuing
imitate imitated imitating
immerse immersed immerses immersing
immigrate immigrated immigrating
immobilise immobilised immobilises immobilising
immobilize immobilized immobilizes immobilizing
immolate immolated immolating
immortalise immortalised immortalises immortalising
immortalize immortalized immortalizes immortalizing
immunise immunised immunises immunising
immunize immunized immunizes immunizing
immure immured immuring
imp implied implying
impale impaled impaling
impasse impasses
impeach impeaches
impede impeded impeding
impel impelled impelling
imperil imperilled imperilling
impersonate impersonated impersonating
impinge impinged impinging
implicate implicated implicating
implode imploded imploding
implore implored imploring
importune importuned importuning
impose imposed imposes imposing
imposture impostured imposturing
impoverish impoverishes
impregnate impregnated impregnating
improve improved improving
improvise improvised improvises improvising
impulse impulsed impulses impulsing
impure impurer impurest
impute imputed imputing
inapt inapter inaptest
inaugurate inaugurated inaugurating
incapacitate incapacitated incapacitating
incarcerate incarcerated incarcerating
incarnate incarnated incarnating
incase incased incases incasing
incense incensed incenses incensing
inch inches
incinerate incinerated incinerating
incise incised incises incising
incite incited inciting
incline inclined inclining
inclose inclosed incloses inclosing
include included including
inconvenience inconvenienced inconveniencing
incorporate incorporated incorporating
increase increased increases increasing
incriminate incriminated incriminating
incubate incubated incubating
incubus incubi
inculcate inculcated inculcating
inculpate inculpated inculpating
indemnify indemnified
indenture indentured indenturing
index indices
indicate indicated indicating
indigo indigoes
individualise individualised individualises individualising
individualize individualized individualizes individualizing
indoctrinate indoctrinated indoctrinating
indorse indorsed indorses indorsing
induce induced inducing
indue indued induing
indulge indulged indulging
industrialise industrialised industrialises industrialising
industrialize industrialized industrializes industrializing
inebriate inebriated inebriating
infantryman infantrymen
infatuate infatuated infatuating
infelicitous infelicitouser infelicitousest
infiltrate infiltrated infiltrating
inflate inflated inflating
influence influenced influencing
influenza influenzae
infringe infringed infringing
infuriate infuriated infuriating
infuse infused infuses infusing
ingratiate ingratiated ingratiating
inhale inhaled
inhere inhered inhering
initial initialled initialling
initialise initialised initialises initialising
initialize initialized initializes initializing
initiate initiated initiating
injure injured injuring
inlay inlaid inlayinging
inn inned
innovate innovated innovating
inoculate inoculated inoculating
inquire inquired inquiring
inscribe inscribed inscribing
inseminate inseminated inseminating
insinuate insinuated insinuating
inspire inspired inspiring
instance instanced instancing
instigate instigated instigating
institute instituted instituting
institutionalise institutionalised institutionalises institutionalising
institutionalize institutionalized institutionalizes institutionalizing
insulate insulated insulating
insure insuring
integrate integrated integrating
intellectualise intellectualised intellectualises intellectualising
intellectualize intellectualized intellectualizes intellectualizing
intense intenser intensest
intensify intensified
interbre interbred interbreeding
intercede interceded interceding
interchange interchanged interchanging
intercourse intercourses
interface interfaced
interfere interfered interfering
interlace interlaced interlacing
interleave interleaved interleaving
intermarry intermarried
intermediate intermediated intermediating
intermezzo intermezzi
intermingle intermingled intermingling
internalise internalised internalises internalising
internalize internalized internalizes internalizing
internationalise internationalised internationalises internationalising
internationalize internationalized internationalizes internationalizing
interpolate interpolated interpolating
interpose interposed interposes interposing
interrelate interrelated interrelating
interrogate interrogated interrogating
intersperse interspersed intersperses interspersing
intertwine intertwined intertwining
intervene intervened intervening
interweave interweaved interweaving interwove interwoven
intimate intimated intimating
intimidate intimidated intimidating
intone intoned intoning
intoxicate intoxicated intoxicating
intrench intrenches
intricate intricated intricating
intrigue intrigued intriguing
introduce introduced introducing
intrude intruded intruding
inundate inundated inundating
inure inured inuring
invade invaded invading
invalidate invalidated invalidating
inveigle inveigled inveigling
inventory inventoried
inverse inversed inverses inversing
investigate investigated investigating
invigorate invigorated invigorating
invite invited inviting
invoice invoiced invoicing
invoke invoked invoking
involve involved involving
iodise iodised iodises iodising
iodize iodized iodizes iodizing
ionise ionised ionises ionising
ionize ionized ionizes ionizing
iris irides
irradiate irradiated irradiating
irrigate irrigated irrigating
irritate irritated irritating
isolate isolated isolating
issue issued issuing
isthmus isthmi
italicise italicised italicises italicising
italicize italicized italicizes italicizing
itch itches
itemise itemised itemises itemising
itemize itemized itemizes itemizing
iterate iterated iterating
jackknife jackknifed jackknifing
jade jaded jading
jalousie jalousies
jangle jangled jangling
jaunty jauntier jauntiest
jellyfish jellyfishes
jeopardise jeopardised jeopardises jeopardising
jeopardize jeopardized jeopardizes jeopardizing
jerky jerkier jerkiest
jibe jibed jibing
jiblet jibletses
jiggle jiggled jiggling
jimmy jimmied
jingle jingled jingling
jittery jitterier jitteriest
joke joked joking
jol jollier jolliest
jostle jostled jostling
journeyman journeymen
judge judged judging
juggle juggled juggling
juice juiced juicing
juicy juicier juiciest
jumble jumbled jumbling
jumpy jumpier jumpiest
junco juncoes
justify justified
juxtapose juxtaposed juxtaposes juxtaposing
kaleidoscope kaleidoscoped kaleidoscoping
kamikaze kamikazes
keen keener keenest
keep kept
kennel kennelled kennelling
kerchief kerchieves
kernel kernelled kernelling
keypunch keypunches
keystroke keystroked keystroking
kibbutz kibbutzim
kind kinder kindest
kindle kindled kindling
kingly kinglier kingliest
kinky kinkier kinkiest
kinsman kinsmen
kinswoman kinswomen
kite kited kiting
kiwi kiwis
klunky klunkier klunkiest
knee kneed kneeing
kneel knelt
knife knifed knifing knives
knobby knobbier knobbiest
knotty knottier knottiest
know knew
knuckle knuckled
kohlrabi kohlrabis
krone kroner
label labelled
labium labia
lace laced lacing
lacerate lacerated lacerating
lactate lactated lactating
lacuna lacunae
lacy lacier laciest
lade laded
ladle ladled ladling
lake laked laking
lame lamed lamer lamest laming
laminate laminated laminating
lance lanced lancing
landscape landscaped landscaping
landslide landslid landslided landsliding
language languaged languaging
languish languishes
lanky lankier lankiest
lapse lapsed lapses lapsing
larch larches
large larger largest
larva larvae
laryngitis laryngitides
larynx larynges
lash lashes
latch latches
late later latest
latex latices
lathe lathed lathing
lattice latticed latticing
launch launches
laundryman laundrymen
lavish lavishes
lax laxer laxest
lay laid
layman laymen
layperson laypeople
laywoman laywomen
lazy lazier laziest
leach leaches
lead led
leafy leafier leafiest
league leagued leaguing
leaky leakier leakiest
lean leaner leanest leant
leap leapt
learn learnt
lease leased leases leasing
leash leashes
leave leaving
lecture lectured lecturing
ledge ledged ledging
leech leeches
legalise legalised legalises legalising
legalize legalized legalizes legalizing
legate legated legating
legislate legislated legislating
legitimate legitimated legitimating
legitimise legitimised legitimises legitimising
legitimize legitimized legitimizes legitimizing
lemma lemmata
len lensed lensing
lend lent
lengthy lengthier lengthiest
less least
level levelled levelling
leverage leveraged leveraging
levitate levitated levitating
levy levied
lewd lewder lewdest
lexicon lexica
liaise liaised liaises liaising
libel libelled libelling
liberalise liberalised liberalises liberalising
liberalize liberalized liberalizes liberalizing
liberate liberated liberating
libido libidines
libretto libretti
licence licenced licencing
license licensed licenses licensing
lie lain lied lying
ligature ligatured ligaturing
light lightest lit
lighthouse lighthouses
lightn lightninged
like liked likelier likeliest liking
lilliputian lilliputianer lilliputianest
lime limed liming
limp limper limpest
limy limier limiest
line lined
lineman linemen
linesman linesmen
lionize lionized lionizes lionizing
liquefy liquefied
liquidate liquidated liquidating
liquidise liquidised liquidises liquidising
liquidize liquidized liquidizes liquidizing
liquify liquified
liquor liquores
lira lire
litchi litchis
litigate litigated litigating
little littler littlest
live lived livelier liveliest
loaf loaves
loamy loamier loamiest
loathe loathed loathing
lobby lobbied
localise localised localises localising
localize localized localizes localizing
locate located locating
loco locoes
locus loca loci
lodge lodged
lofty loftier loftiest
lone lonelier loneliest
long longer longest
longshoreman longshoremen
loopy loopier loopiest
loose loosed looser looses loosest loosing
lope loped loping
lose loses losing lost
loud louder loudest
lounge lounged lounging
louse lice louses
lousy lousier lousiest
love loved lovelier loveliest loving
low lowest lowlier lowliest
loyal loyaller loyallest
lubricate lubricated lubricating
lucky luckier luckiest
lumberman lumbermen
lumpy lumpier lumpiest
lunch lunches
lunge lunged lunging
lurch lurches
lure lured luring
lush lusher lushes lushest
lute luted luting
luxuriate luxuriated luxuriating
lymphoma lymphomata
lynch lynches
macerate macerated macerating
machine machined machining
macintosh macintoshes
mackintosh mackintoshes
mad maddest
madhouse madhouses
madman madmen
madwoman madwomen
maestro maestri
magnetise magnetised magnetises magnetising
magnetize magnetized magnetizes magnetizing
magnify magnified
magpie magpies
maharishi maharishis
mailman mailmen
mainline mainlined mainlining
maize maizes
make made making
malaise malaises
mamma mammae
man manlier manliest men
manacle manacled manacling
manage managed managing
mandate mandated mandating
manganese manganeses
mangle mangled mangling
mango mangoes
mangy mangier mangiest
manhandle manhandled manhandling
manicure manicured manicuring
manipulate manipulated manipulating
manoeuvre manoeuvred
mantis mantes
mantle mantled mantling
manufacture manufactured manufacturing
manure manured manuring
marble marbled
march marches
marinade marinaded marinading
marinate marinated marinating
marksman marksmen
marsh marshes
marshal marshalled marshalling
marshy marshier marshiest
martini martinis
marvel marvelled marvelling
mash mashes
masque masqued masquing
masquerade masqueraded masquerading
massacre massacred massacring
massage massaged massaging
masseuse masseuses
masticate masticated masticating
masturbate masturbated masturbating
match matches
mate mated
materialise materialised materialises materialising
materialize materialized materializes materializing
matriculate matriculated matriculating
matrix matrices
mature matured maturest maturing
mausoleum mausolea
maxilla maxillae
maximise maximised maximises maximising
maximize maximized maximizes maximizing
maximum maxima
may might
mayonnaise mayonnaises
maze mazed mazes mazing
mea mealier mealiest
mean meaner meanest meant
measure measured measuring
meatloaf meatloaves
meaty meatier meatiest
mechanise mechanised mechanises mechanising
mechanize mechanized mechanizes mechanizing
meddle meddled meddling
mediate mediated mediating
medicate medicated medicating
meditate meditated meditating
medulla medullae
meek meeker meekest
meet met
melanoma melanomata
mellifluous mellifluouser mellifluousest
mellow mellower mellowest
memorandum memoranda
memorialize memorialized memorializes memorializing
memorise memorised memorises memorising
memorize memorized memorizes memorizing
menace menaced menacing
menagerie menageries
mendicant mendicanter mendicantest
meningitis meningitides
menstruate menstruated menstruating
menu menus
mercerise mercerised mercerises mercerising
mercerize mercerized mercerizes mercerizing
merchandise merchandised merchandises
merchandize merchandized merchandizes merchandizing
mere merer merest
merge merged merging
merman mermen
merry merrier merriest
mesh meshes
mesmerise mesmerised mesmerises mesmerising
mesmerize mesmerized mesmerizes mesmerizing
message messaged messaging
messy messier messiest
mestizo mestizoes
metabolise metabolised metabolises metabolising
metabolize metabolized metabolizes metabolizing
metacarpus metacarpi
metal metalled metalling
metamorphose metamorphosed metamorphosing
metastasis metastases
metastasise metastasised metastasises metastasising
metastasize metastasized metastasizes metastasizing
mete meted meting
metre metred metring
metropolis metropolides
mettlesome mettlesomer mettlesomest
miasma miasmata
micron micra
microscope microscoped microscoping
microwave microwaved microwaving
middle middled middling
middleman middlemen
midshipman midshipmen
midwife midwifed midwifing midwived midwiving
mighty mightier mightiest
migrate migrated migrating
mike miked miking
mild milder mildest
milieu milieus milieux
militarise militarised militarises militarising
militarize militarized militarizes militarizing
militate militated militating
militiaman militiamen
milkman milkmen
milky milkier milkiest
mime mimed miming
minatory minatorier minatoriest
mince minced mincing
mine mined mining
mingle mingled mingling
mini minis
miniaturise miniaturised miniaturises miniaturising
miniaturize miniaturized miniaturizes miniaturizing
minimise minimised minimises minimising
minimize minimized minimizes minimizing
minimum minima
minty mintier mintiest
minute minuted minuter minutest minuting
minuteman minutemen
minutia minutiae
mire mired miring
misap misapplied misapplying
misappropriate misappropriated misappropriating
misbehave misbehaved misbehaving
miscalculate miscalculated miscalculating
miscarry miscarried
misconceive misconceived misconceiving
misconstrue misconstrued misconstruing
miscue miscued miscuing
misdeal misdealt
misdiagnose misdiagnosed misdiagnosing
misfire misfired misfiring
misguide misguided misguiding
mishandle mishandled mishandling
mishmash mishmashes
misidentify misidentified
misjudge misjudged misjudging
mislay mislaid
mislead misled
mismanage mismanaged mismanaging
mismatch mismatches
misplace misplaced misplacing
mispronounce mispronounced mispronouncing
misquote misquoted misquoting
misrule misruled misruling
misspell misspelt
misspend misspent
misstate misstated misstating
mistake mistaken mistaking mistook
mistime mistimed mistiming
misty mistier mistiest
mistype mistyped mistyping
misunderstand misunderstood
misuse misused misuses misusing
mitigate mitigated mitigating
mitosis mitoses
mitre mitred mitring
mobilise mobilised mobilises mobilising
mobilize mobilized mobilizes mobilizing
model modelled
moderate moderated moderating
modern moderner modernest
modernise modernised modernises modernising
modernize modernized modernizes modernizing
modify modified
modulate modulated modulating
modulus moduli
moire moired
moist moister moistest
moisturise moisturised moisturises moisturising
moisturize moisturized moisturizes moisturizing
moldy moldier moldiest
mollify mollified
mollycoddle mollycoddled mollycoddling
momentum momenta
monetise monetised monetises monetising
monetize monetized monetizes monetizing
money monies
mongoose mongooses
monopolise monopolised monopolises monopolising
monopolize monopolized monopolizes monopolizing
monsieur messieurs
montage montaged montaging
moo mooed mooing
moody moodier moodiest
mope moping
moralise moralised moralises moralising
moralize moralized moralizes moralizing
moratorium moratoria
mortgage mortgaged mortgaging
mortice morticed morticing
mortify mortified
mortise mortised mortises mortising
mosquito mosquitoes
mossy mossier mossiest
motivate motivated motivating
motorcycle motorcycled motorcycling
motorise motorised motorises motorising
motorize motorized motorizes motorizing
motorman motormen
mottle mottled
motto mottoes
mouldy mouldier mouldiest
mouse mice
mousey mouseyer mouseyest
mousy mousier mousiest
mouthful mouthsful
mouthwash mouthwashes
move moved moving
mow mown
muckrake muckraked muckraking
muddle muddled muddling
muddy muddied muddier muddiest
muff muffed muffing
muffle muffled muffling
mufti muftis
mulatto mulattoes
mulch mulches
multip multiplied multiplying
mumble mumbled mumbling
mummify mummified
mummy mummied
munch munches
murky murkier murkiest
muscle muscled muscling
muse mused muses
mushy mushier mushiest
mussy mussier mussiest
musty mustier mustiest
mutate mutated mutating
mute muted muting
mutilate mutilated mutilating
mutiny mutinied
muzzle muzzled muzzling
mystify mystified
name named naming
nappy nappier nappiest
narcissus narcissi
narcosis narcoses
narrate narrated narrating
narrow narrowest
nasalise nasalised nasalises nasalising
nasalize nasalized nasalizes nasalizing
nasty nastier nastiest
nationalise nationalised nationalises nationalising
nationalize nationalized nationalizes nationalizing
natty nattier nattiest
naturalise naturalised naturalises naturalising
naturalize naturalized naturalizes naturalizing
naughty naughtier naughtiest
nauseate nauseated nauseating
nautilus nautili
navigate navigated navigating
near nearer nearest
neat neater neatest
nebula nebulae
necessitate necessitated necessitating
necktie neckties
necrosis necroses
needle needled needling
needy needier neediest
negate negated negating
negative negatived negativing
negotiate negotiated negotiating
nemesis nemeses
nephritis nephritides
nerdy nerdier nerdiest
nerve nerved nerving
nestle nestled
nettle nettled nettling
neuritis neuritides
neurosis neuroses
neutralise neutralised neutralises neutralising
neutralize neutralized neutralizes neutralizing
new newer newest
newsman newsmen
newspaperman newspapermen
newspaperwoman newspaperwomen
newsy newsier newsiest
nibble nibbled nibbling
nice nicer nicest
niche niched niching
nickel nickelled nickelling
nickname nicknamed nicknaming
nifty niftier niftiest
niggle niggled niggling
nimbus nimbi
nipple nippled nippling
nitrate nitrated nitrating
noble nobler noblest
nobleman noblemen
noblewoman noblewomen
noise noised noises noising
noisy noisier noisiest
nominate nominated nominating
nonesuch nonesuches
nonplus nonplussed nonplussing
noose noosed nooses noosing
normalise normalised normalises normalising
normalize normalized normalizes normalizing
nose nosed noses nosing
nosedive nosedived nosediving
nosey noseyer noseyest
nosh noshes
nostrum nostra
nosy nosier nosiest
notarize notarized notarizes notarizing
notch notches
note noted noting
notice noticed noticing
notify notified
nourish nourishes
nova novae
novella novelle
nuance nuanced nuancing
nucleus nuclei
nude nuder nudest
nudge nudged nudging
nullify nullified
numb numbest
numerate numerated numerating
nurse nursed nurses
nurseryman nurserymen
nurture nurtured nurturing
nuthatch nuthatches
nuzzle nuzzled nuzzling
oarsman oarsmen
oasis oases
obdurate obdurated obdurating
obfuscate obfuscated obfuscating
oblate oblated oblating
obligate obligated obligating
oblige obliged obliging
obliterate obliterated obliterating
obscure obscured obscuring
observe observed observing
obtrude obtruded obtruding
obtuse obtuser obtusest
obverse obverses
obviate obviated obviating
occlude occluded occluding
occupy occupied
octopus octopi
odd odder oddest
oedema oedemata
oesophagus oesophagi
offense offenses
officiate officiated officiating
often oftener oftenest
ogle ogled ogling
oily oilier oiliest
old older oldest
oldie oldies
ombudsman ombudsmen
omnibus omnibusses
ooze oozed oozes oozing
opaque opaqued
operate operated operating
opine opined opining
oppose opposed opposes opposing
optimise optimised optimises optimising
optimize optimized optimizes optimizing
optimum optima
orate orated orating
orchestrate orchestrated orchestrating
organise organised organises organising
organize organized organizes organizing
orientate orientated orientating
originate originated originating
oscillate oscillated oscillating
osmosis osmoses
ossify ossified
osteoporosis osteoporoses
ostracise ostracised ostracises ostracising
ostracize ostracized ostracizes ostracizing
ostrich ostriches
ouch ouches
outbalance outbalanced outbalancing
outbid outbade outbidden
outbreak outbroke outbroken
outdistance outdistanced outdistancing
outdo outdid outdoes outdone
outgo outgoes outgone outwent
outgrow outgrew outgrown
outhouse outhouses
outlay outlaid
outline outlined outlining
outlive outlived outliving
outmanoeuvre outmanoeuvred outmanoeuvring
outrage outraged outraging
outreach outreaches
outrun outran
outshine outshining outshone
outsource outsourced
outstretch outstretches
outvote outvoted outvoting
outwear outwore outworn
oval ovalled ovalling
overachieve overachieved overachieving
overawe overawed overawing
overbalance overbalanced overbalancing
overbear overbore overborne
overcharge overcharged overcharging
overcompensate overcompensated overcompensating
overdo overdid overdoes overdone
overdose overdosed overdoses overdosing
overdraw overdrawn overdrew
overdrive overdriven overdriving overdrove
overemphasise overemphasised overemphasises overemphasising
overemphasize overemphasized overemphasizes overemphasizing
overestimate overestimated overestimating
overexpose overexposed overexposes overexposing
overgrow overgrew overgrown
overhear overheard
overindulge overindulged overindulging
overlay overlaid
overlie overlain overlies overlying
overpopulate overpopulated overpopulating
overproduce overproduced overproducing
overrate overrated overrating
overreach overreaches
overripe overriper overripest
overrule overruled overruling
overrun overran
oversee oversaw overseeing overseen
oversell oversold
oversimplify oversimplified
oversize oversized oversizes oversizing
oversleep overslept
overspecialise overspecialised overspecialises overspecialising
overspecialize overspecialized overspecializes overspecializing
overstate overstated overstating
overthrow overthrew overthrown
overture overtured overturing
overuse overused overuses overusing
ovulate ovulated ovulating
ovum ova
owe owed owing
oxidise oxidised oxidises oxidising
oxidize oxidized oxidizes oxidizing
oxygenate oxygenated oxygenating
oxymoron oxymora
pace paced
pacify pacified
package packaged
paddle paddled paddling
page paged paging
paginate paginated paginating
pailful pailsful
paintbrush paintbrushes
palate palated palating
palatial palatialer palatialest
pale paler palest
palisade palisaded palisading
palliate palliated palliating
palmetto palmettoes
palmy palmier palmiest
palpate palpated palpating
palpitate palpitated palpitating
pancake pancaked pancaking
pancrea pancreases pancreata
panel panelled
panhandle panhandled panhandling
panic panicked panicking
pantomime pantomimed pantomiming
papilla papillae
papoose papooses
pappoose pappooses
papyrus papyri
par partes
parachute parachuted
parade paraded parading
paradigm paradigmata
paradise paradises
parallel parallelled parallelling
paralyse paralysed paralysing
paralyze paralyzed paralyzes paralyzing
paramecium paramecia
paraphrase paraphrased paraphrases paraphrasing
parasite parasited parasiting
parcel parcelled parcelling
parch parches
pare pared
parenthesis parentheses
parenthesize parenthesized parenthesizes parenthesizing
parish parishes
parody parodied
parole paroled paroling
parry parried
parse parsed parses parsing
partake partaken partaking partook
parthenogenesis parthenogeneses
participate participated participating
particularise particularised particularises particularising
particularize particularized particularizes particularizing
particulate particulated particulating
party partied
passerby passersby
pasta pastae
paste pasted pasting
pasteurise pasteurised pasteurises pasteurising
pasteurize pasteurized pasteurizes pasteurizing
pastrami pastramis
pasture pastured pasturing
pasty pastier pastiest
patch patches
patchy patchier patchiest
patella patellae
patina patinae
patrol patrolled patrolling
patrolman patrolmen
patrolwoman patrolwomen
patronise patronised patronises patronising
patronize patronized patronizes patronizing
paunch paunches
paunchy paunchier paunchiest
pauperise pauperised pauperises pauperising
pauperize pauperized pauperizes pauperizing
pause paused pauses pausing
pave paved paving
pay paid
peach peaches
pear pearlier pearliest
peb pebblier pebbliest
pebble pebbled
peccadillo peccadilloes
pedal pedalled pedalling
peddle peddled peddling
pedestrianise pedestrianised pedestrianises pedestrianising
pedestrianize pedestrianized pedestrianizes pedestrianizing
pee peed peeing
pekinese pekineses
pekingese pekingeses
pelvis pelves
penalise penalised penalises penalising
penalize penalized penalizes penalizing
pencil pencilled pencilling
pendulum pendula
penetrate penetrated penetrating
penis penes
penknife penknives
penny pence
penthouse penthouses
peon peones
people peopled peopling
peppy peppier peppiest
perambulate perambulated perambulating
perceive perceived perceiving
perch perches
percolate percolated percolating
perforate perforated perforating
perfume perfumed perfuming
pericardium pericardia
perihelion perihelia
periphrasis periphrases
perish perishes
peritonaeum peritonaea
peritoneum peritonea
peritonitis peritonitides
perjure perjured perjuring
perky perkier perkiest
permeate permeated permeating
permute permuted permuting
peroxide peroxided peroxiding
perpetrate perpetrated perpetrating
perpetuate perpetuated perpetuating
persecute persecuted persecuting
persevere persevered persevering
persona personae
personalise personalised personalises personalising
personalize personalized personalizes personalizing
personify personified
perspire perspired perspiring
persuade persuaded persuading
peruse perused peruses perusing
pervade pervaded pervading
pesky peskier peskiest
pestle pestled pestling
petrify petrified
petty pettier pettiest
phalanx phalanges
phallus phalli
pharmacopeia pharmacopeiae
pharmacopoeia pharmacopoeiae
pharynx pharynges
phase phased phases phasing
phenomenon phenomena
phenotype phenotyped phenotyping
philodendron philodendra
philosophise philosophised philosophises philosophising
philosophize philosophized philosophizes philosophizing
phlebitis phlebitides
phone phoned phoning
photocopy photocopied
photosynthesis photosyntheses
phrase phrased phrases phrasing
phylum phyla
physic physicked physicking
picaresque picaresqueer picaresqueest
pickle pickled pickling
picky pickier pickiest
picnic picnicked picnicking
picture pictured picturing
piece pieced piecing
pierce pierced
pigeonhole pigeonholed pigeonholing
piggy piggier piggiest
pilau pilaus
pile piled piling
pillage pillaged pillaging
pillowcase pillowcases
pinch pinches
pine pined pining
pink pinker pinkest
pinto pintoes
pipe piped piping
pique piqued piquing
pirate pirated pirating
pirouette pirouetted pirouetting
pitch pitches
pitchman pitchmen
pithy pithier pithiest
pity pitied
placate placated placating
place placed placing
placebo placeboes
placenta placentae
plagiarise plagiarised plagiarises plagiarising
plagiarize plagiarized plagiarizes plagiarizing
plague plagued plaguing
plain plainer plainest
plainclothesman plainclothesmen
plane planed planing
planetarium planetaria
plaque plaqued plaquing
plate plated
plateau plateaus plateaux
plateful platesful
playhouse playhouses
plead pled
pleasant pleasanter pleasantest
please pleased pleases pleasing
pleasure pleasured pleasuring
plectrum plectra
pledge pledged pledging
plexus plexi
plucky pluckier pluckiest
plume plumed pluming
plump plumper plumpest
plunge plunged plunging
pluralise pluralised pluralises pluralising
pluralize pluralized pluralizes pluralizing
plus plusses
plush plusher plushest
ply plied
pneumonia pneumoniae
poach poaches
pocketful pocketsful
podium podia
poi pois
pointy pointier pointiest
poise poised poises poising
poke poked poking
poky pokier pokiest
polarise polarised polarises polarising
polarize polarized polarizes polarizing
pole poled
police policed policing
policeman policemen
policewoman policewomen
poliomyelitis poliomyelitides
polish polishes
politicise politicised politicises politicising
politicize politicized politicizes politicizing
politico politicoes
pollinate pollinated pollinating
pollute polluted polluting
polyhedron polyhedra
pomade pomaded pomading
pommel pommelled pommelling
pontificate pontificated pontificating
pooch pooches
poor poorer poorest
poorhouse poorhouses
popularise popularised popularises popularising
popularize popularized popularizes popularizing
populate populated populating
porch porches
pore pored poring
porpoise porpoised porpoises porpoising
port portlier portliest
porterhouse porterhouses
portico porticoes
portmanteau portmanteaus portmanteaux
pose posed poses posing
posh posher poshest
posse posses
postdate postdated postdating
postman postmen
postpone postponed postponing
postulate postulated postulating
posture postured
potato potatoes
potty pottier pottiest
pouch pouches
poultice poulticed poulticing
pounce pounced pouncing
powerhouse powerhouses
practice practiced practicing
practise practised practises practising
prairie prairies
praise praised praises praising
prance pranced prancing
prate prated prating
prattle prattled prattling
preach preaches
preachy preachier preachiest
prearrange prearranged prearranging
precede preceded preceding
precipitate precipitated precipitating
precise precised precises precising
preclude precluded precluding
preconceive preconceived preconceiving
predate predated predating
predecease predeceased predeceases predeceasing
predestine predestined predestining
predetermine predetermined predetermining
predicate predicated predicating
predispose predisposed predisposes predisposing
predominate predominated predominating
prefabricate prefabricated prefabricating
preface prefaced prefacing
prefigure prefigured prefiguring
prejudge prejudged prejudging
prejudice prejudiced prejudicing
prelude preluded preluding
premeditate premeditated premeditating
premise premised premises premising
preoccupy preoccupied
prepackage prepackaged prepackaging
prepare prepared preparing
preponderate preponderated preponderating
preppy preppier preppiest
presage presaged presaging
prescribe prescribed prescribing
preserve preserved preserving
preside presided presiding
pressman pressmen
pressure pressured pressuring
pressurise pressurised pressurises pressurising
pressurize pressurized pressurizes pressurizing
presume presumed presuming
presuppose presupposed presupposes presupposing
pretense pretenses
prettify prettified
pretty prettier prettiest
prevaricate prevaricated prevaricating
price priced pricing
pricey pricier priciest
prick pricklier prickliest
prickle prickled prickling
pride prided priding
prim primmer primmest
prime primed priming
primrose primroses
prince princelier princeliest
prioritise prioritised prioritises prioritising
prioritize prioritized prioritizes prioritizing
prise prised prises prising
prissy prissier prissiest
privatise privatised privatises privatising
privatize privatized privatizes privatizing
privilege privileged privileging
prize prized prizes prizing
probate probated probating
probe probed
proboscis proboscides
proce proceeded
procrastinate procrastinated procrastinating
procreate procreated procreating
procure procured procuring
produce produced producing
profane profaned profaning
profile profiled profiling
proforma proformae proformata
profound profounder profoundest
prognosis prognoses
prognosticate prognosticated prognosticating
programme programmed programming
proliferate proliferated proliferating
promenade promenaded promenading
promise promised promises promising
promote promoted promoting
prompt promptest
promulgate promulgated promulgating
prone proner pronest
pronounce pronounced pronouncing
propagandise propagandised propagandises propagandising
propagandize propagandized propagandizes propagandizing
propagate propagated propagating
propel propelled propelling
prophesy prophesied
prophylaxis prophylaxes
propitiate propitiated propitiating
proportionate proportionated proportionating
propose proposed proposes proposing
prorate prorated prorating
proscribe proscribed proscribing
prose proses
prosecute prosecuted prosecuting
proselytise proselytised proselytises proselytising
proselytize proselytized proselytizes proselytizing
prosthesis prostheses
prostitute prostituted prostituting
prostrate prostrated prostrating
protocol protocolled protocolling
prototype prototyped prototyping
protrude protruded protruding
proud prouder proudest
prove proved proven
provide provided providing
proviso provisoes
provoke provoked provoking
prune pruned pruning
pry pried
psoriasis psoriases
psychoanalyse psychoanalysed psychoanalyses psychoanalysing
psychoanalyze psychoanalyzed psychoanalyzes psychoanalyzing
psychosis psychoses
publicise publicised publicises publicising
publicize publicized publicizes publicizing
publish publishes
puddle puddled puddling
puff puffed puffing
puffy puffier puffiest
puke puked puking
pulpy pulpier pulpiest
pulsate pulsated pulsating
pulse pulsed pulses pulsing
pulverise pulverised pulverises pulverising
pulverize pulverized pulverizes pulverizing
pumice pumiced pumicing
pummel pummelled pummelling
punch punches
punchy punchier punchiest
punctuate punctuated punctuating
puncture punctured puncturing
punish punishes
pupa pupae
purchase purchased purchases purchasing
pure purer purest
puree pureed pureeing
purge purged purging
purify purified
purple purpler purplest
purpose purposed purposes purposing
purr purred purring
purse pursed purses pursing
pursue pursued pursuing
pus pura
push pushes
putrefy putrefied
putrify putrified
putt putted
putty puttied
puzzle puzzled puzzling
quadruple quadrupled quadrupling
quadruplicate quadruplicated quadruplicating
quaff quaffed quaffing
quaint quainter quaintest
quake quaked quaking
qualify qualified
quantify quantified
quantum quanta
quarantine quarantined quarantining
quarrel quarrelled quarrelling
quarry quarried
quash quashes
queasy queasier queasiest
queer queerer queerest
quench quenches
query queried
questionnaire questionnaired questionnairing
queue queued queuing
quibble quibbled quibbling
quick quicker quickest
quiet quieter quietest
quintuple quintupled quintupling
quirky quirkier quirkiest
quiz quizzed quizzes quizzing
quote quoted quoting
rabbi rabbis
race raced racing
racecourse racecourses
racehorse racehorses
racy racier raciest
radiate radiated radiating
radish radishes
radius radii
raffle raffled raffling
rage raged raging
rainy rainier rainiest
raise raised raises raising
rake raked raking
ral rallied rallying
ramble rambled rambling
ramify ramified
rampage rampaged rampaging
ranch ranches
randomise randomised randomises randomising
randomize randomized randomizes randomizing
randy randier randiest
range ranged ranging
rankle rankled rankling
rape raped raping
rapid rapider rapidest
rare rarer rarest
rarefy rarefied
rarify rarified
rash rashes
raspy raspier raspiest
rate rated
ratify ratified
rationalise rationalised rationalises rationalising
rationalize rationalized rationalizes rationalizing
rattle rattled
ravage ravaged ravaging
rave raved
ravel ravelled ravelling
ravish ravishes
raze razed razes razing
reach reaches
reactivate reactivated reactivating
ready readied readier readiest
real realer realest
realise realised realises realising
realize realized realizes realizing
reallocate reallocated reallocating
reanimate reanimated reanimating
reap reapplied reapplying
reappraise reappraised reappraises reappraising
rearrange rearranged rearranging
reassemble reassembled reassembling
reassure reassured reassuring
rebate rebated rebating
rebel rebelled rebelling
rebuff rebuffed rebuffing
rebuke rebuked rebuking
recapitulate recapitulated recapitulating
recapture recaptured recapturing
recede receded receding
receive received receiving
recharge recharged recharging
reciprocate reciprocated reciprocating
recite recited reciting
reclassify reclassified
recline reclined reclining
recluse recluses
recognise recognised recognises recognising
recognize recognized recognizes recognizing
recombine recombined recombining
recommence recommenced recommencing
recompense recompensed recompenses recompensing
recompile recompiled recompiling
reconcile reconciled reconciling
reconfigure reconfigured reconfiguring
reconnoitre reconnoitred reconnoitring
reconstitute reconstituted reconstituting
reconvene reconvened reconvening
recopy recopied
recourse recourses
recreate recreated recreating
recriminate recriminated recriminating
rectify rectified
rectum recta
recuperate recuperated recuperating
recycle recycled
red redder reddest
redecorate redecorated redecorating
rededicate rededicated rededicating
redefine redefined redefining
redistribute redistributed redistributing
redouble redoubled redoubling
reduce reduced reducing
reeducate reeducated reeducating
reemerge reemerged reemerging
reemphasise reemphasised reemphasises reemphasising
reemphasize reemphasized reemphasizes reemphasizing
reenforce reenforced reenforcing
reestablish reestablishes
reevaluate reevaluated reevaluating
reeve reeved reeving
reexamine reexamined reexamining
referee refereed refereeing
reference referenced referencing
referendum referenda
refile refiled
refinance refinanced
refine refined refining
refinish refinishes
refocus refocussed refocussing
reformulate reformulated reformulating
refresh refreshes
refrigerate refrigerated refrigerating
refuel refuelled refuelling
refurbish refurbishes
refurnish refurnishes
refuse refused refuses refusing
refute refuted refuting
regale regaled regalia regaling
regenerate regenerated regenerating
regularise regularised regularises regularising
regularize regularized regularizes regularizing
regulate regulated regulating
regurgitate regurgitated regurgitating
rehabilitate rehabilitated rehabilitating
rehash rehashes
rehearse rehearsed rehearses rehearsing
rehire rehired rehiring
reimburse reimbursed reimburses reimbursing
reimpose reimposed reimposes reimposing
reincarnate reincarnated reincarnating
reinforce reinforced reinforcing
reinstate reinstated reinstating
reissue reissued reissuing
reiterate reiterated reiterating
rejoice rejoiced
rejuvenate rejuvenated rejuvenating
rekindle rekindled rekindling
relabel relabelled relabelling
relapse relapsed relapses relapsing
relate related relating
relay relaid
release released releases releasing
relegate relegated relegating
relieve relieved relieving
relinquish relinquishes
relish relishes
relive relived reliving
relocate relocated relocating
rely relied
remake remade remaking
remarry remarried
rematch rematches
remedy remedied
reminisce reminisced reminiscing
remodel remodelled
remonstrate remonstrated remonstrating
remote remoter remotest
remove removed removing
remunerate remunerated remunerating
rename renamed renaming
renege reneged reneging
renegotiate renegotiated renegotiating
renegue renegued reneguing
renounce renounced renouncing
renovate renovated renovating
reoccupy reoccupied
reorganise reorganised reorganises reorganising
reorganize reorganized reorganizes reorganizing
rep replied replying
repackage repackaged repackaging
repairman repairmen
repatriate repatriated repatriating
repay repaid
repel repelled repelling
rephrase rephrased rephrases rephrasing
replace replaced replacing
replenish replenishes
replete repleted repleting
replicate replicated replicating
repose reposed reposes reposing
reprieve reprieved reprieving
reprise reprised reprises reprising
reproach reproaches
reprobate reprobated reprobating
reproduce reproduced reproducing
reprogramme reprogrammed reprogramming
reprove reproved reproving
republish republishes
repudiate repudiated repudiating
repulse repulsed repulses repulsing
require required requiring
requite requited requiting
reroute rerouted rerouting
rerun reran
reschedule rescheduled rescheduling
rescue rescued rescuing
research researches
resell resold
resemble resembled resembling
reserve reserved reserving
resettle resettled resettling
reshuffle reshuffled reshuffling
reside resided residing
resolve resolved resolving
resonate resonated resonating
resource resourced resourcing
respell respelt
respire respired respiring
response responses
restate restated restating
restore restored restoring
restructure restructured
restudy restudied
resume resumed resuming
resup resupplied resupplying
resurface resurfaced resurfacing
resuscitate resuscitated resuscitating
retaliate retaliated retaliating
retch retches
retell retold
retina retinae
retire retired retiring
retouch retouches
retrace retraced retracing
retrench retrenches
retrieve retrieved retrieving
retrograde retrograded retrograding
retry retried
retype retyped retyping
reunify reunified
reunite reunited reuniting
reuse reused reuses reusing
revalue revalued revaluing
revel revelled revelling
revenge revenged revenging
reverberate reverberated reverberating
revere revered revering
reverie reveries
reverse reversed reverses reversing
revile reviled reviling
revise revised revises revising
revitalise revitalised revitalises revitalising
revitalize revitalized revitalizes revitalizing
revive revived reviving
revivify revivified
revoke revoked revoking
revolutionise revolutionised revolutionises revolutionising
revolutionize revolutionized revolutionizes revolutionizing
revolve revolved revolving
rewire rewired rewiring
rhapsodise rhapsodised rhapsodises rhapsodising
rhapsodize rhapsodized rhapsodizes rhapsodizing
rhinocero rhinoceroses
rhombus rhombi
rhyme rhymed rhyming
rich richer richest
riddle riddled riddling
ride ridden riding rode
ridge ridged ridging
ridicule ridiculed ridiculing
riff riffed riffing
riffle riffled riffling
rifle rifled rifling
rifleman riflemen
right righter rightest
rile riled riling
rime rimed riming
ring rang
rinse rinsed rinses
ripe riper ripest
riposte riposted riposting
ripple rippled rippling
rise risen rises rising
risky riskier riskiest
rival rivalled rivalling
roach roaches
roadhouse roadhouses
robe robed robing
rocky rockier rockiest
romanticise romanticised romanticises romanticising
romanticize romanticized romanticizes romanticizing
roof rooves
rookie rookies
roomful roomsful
roomy roomier roomiest
rope roped roping
rose roses
rosebush rosebushes
rosette rosetted rosetting
rostrum rostra
rosy rosier rosiest
rotate rotated rotating
rotisserie rotisseries
rouge rouged rouging
rough rougher roughest
roughhouse roughhoused roughhouses roughhousing
round rounder roundest
rouse roused rouses rousing
routinise routinised routinises routinising
routinize routinized routinizes routinizing
rove roved roving
rowdy rowdier rowdiest
rowel rowelled rowelling
rubberise rubberised rubberises rubberising
rubberize rubberized rubberizes rubberizing
ruddy ruddier ruddiest
rude ruder rudest
rue rued ruing
ruff ruffed ruffing
ruffle ruffled ruffling
rule ruled
rumble rumbled rumbling
ruminate ruminated ruminating
rummage rummaged rummaging
rumple rumpled rumpling
run ran
runny runnier runniest
rupture ruptured rupturing
rush rushes
rustle rustled
rusty rustier rustiest
sabotage sabotaged sabotaging
sabre sabred sabring
sackful sacksful
sacrifice sacrificed sacrificing
sad sadder saddest
saddle saddled saddling
safari safaris
safe safed safer safest safing
sailfish sailfishes
saint saintlier saintliest
saki sakis
sal sallied sallying
salami salamis
salary salaried
salesman salesmen
salesperson salespeople
saleswoman saleswomen
salivate salivated salivating
salmonella salmonellae
salty saltier saltiest
salute saluted saluting
salvage salvaged salvaging
salve salved salving
salvo salvoes
sample sampled
sanatorium sanatoria
sanctify sanctified
sanctum sancta
sandman sandmen
sandwich sandwiches
sandy sandier sandiest
sane saner sanest
sanitarium sanitaria
sanitise sanitised sanitises sanitising
sanitize sanitized sanitizes sanitizing
sanitorium sanitoria
sappy sappier sappiest
sarcoma sarcomata
sarcophagus sarcophagi
sari saris
sash sashes
sassy sassier sassiest
sate sated sating
satiate satiated satiating
satirise satirised satirises satirising
satirize satirized satirizes satirizing
satisfy satisfied
saturate saturated saturating
saucy saucier sauciest
savage savaged savaging
save saved saving
savvy savvied savvier savviest
saw sawn
sawhorse sawhorses
say said
sca scaley
scabby scabbier scabbiest
scale scaled
scaley scaly
scandalise scandalised scandalises scandalising
scandalize scandalized scandalizes scandalizing
scant scanter scantest
scanty scantier scantiest
scapula scapulae
scarce scarcer scarcest
scare scared scaring
scarf scarves
scarify scarified
scary scarier scariest
scavenge scavenged scavenging
schedule scheduled scheduling
schema schemata
scheme schemed scheming
scherzo scherzi
schlepp schlepped schlepping
schoolhouse schoolhouses
scintillate scintillated scintillating
sclerosis scleroses
scoff scoffed scoffing
scoliosis scolioses
scope scoped scoping
scorch scorches
score scored
scotch scotches
scourge scourged scourging
scrabble scrabbled scrabbling
scramble scrambled scrambling
scrape scraped scraping
scrappy scrappier scrappiest
scratch scratches
scratchy scratchier scratchiest
scrawny scrawnier scrawniest
screech screeches
scribble scribbled scribbling
scribe scribed scribing
scrimmage scrimmaged scrimmaging
scrotum scrota
scrounge scrounged scrounging
scrubby scrubbier scrubbiest
scruff scruffed scruffing
scruffy scruffier scruffiest
scrunch scrunches
scruple scrupled scrupling
scrutinise scrutinised scrutinises scrutinising
scrutinize scrutinized scrutinizes scrutinizing
scuff scuffed scuffing
scuffle scuffled scuffling
sculpture sculptured sculpturing
scurfy scurfier scurfiest
scurry scurried
scurvy scurvier scurviest
scuttle scuttled scuttling
scythe scythed scything
seaman seamen
seamy seamier seamiest
search searches
secede seceded seceding
seclude secluded secluding
secrete secreted secreting
secularise secularised secularises secularising
secularize secularized secularizes secularizing
secure secured securer securest securing
sedate sedated sedater sedatest sedating
seduce seduced seducing
sedulous sedulouser sedulousest
see seeing seen
seedy seedier seediest
seek sought
seethe seethed seething
segregate segregated segregating
segue segued seguing
seize seized seizes seizing
selectman selectmen
self selves
sell sold
selvage selvaged selvaging
selvedge selvedged selvedging
semaphore semaphored semaphoring
semi semis
send sent
sense sensed senses sensing
sensitise sensitised sensitises sensitising
sensitize sensitized sensitizes sensitizing
sentence sentenced sentencing
sententious sententiouser sententiousest
sentimentalise sentimentalised sentimentalises sentimentalising
sentimentalize sentimentalized sentimentalizes sentimentalizing
separate separated separating
sepsis sepses
septum septa
sequence sequenced
serenade serenaded serenading
serialise serialised serialises serialising
serialize serialized serializes serializing
sermonize sermonized sermonizes sermonizing
serum sera
serve served
service serviced servicing
serviceman servicemen
servicewoman servicewomen
settle settled settling
severe severer severest
sew sewn
sexy sexier sexiest
shabby shabbier shabbiest
shackle shackled shackling
shade shaded
shady shadier shadiest
shaggy shaggier shaggiest
shake shaken shaking shook
shaky shakier shakiest
shallow shallower shallowest
shamble shambled shambling
shame shamed shaming
shampoo shampooed shampooing
shanghai shanghais
shape shaped shapelier shapeliest shaping
share shared sharing
sharp sharper sharpest
shave shaved shaven
sheaf sheaves
shear shorn
sheathe sheathed sheathing
sheer sheerer sheerest
shellac shellacked
shellfish shellfishes
shelve shelved shelving
shifty shiftier shiftiest
shimmy shimmied
shine shined shining shone
shingle shingled shingling
shiny shinier shiniest
shit shat
shoddy shoddier shoddiest
shoe shod shoed
shoo shooed shooing
shore shored shoring
short shorter shortest
shortchange shortchanged shortchanging
shove shoved shoving
shovel shovelled shovelling
shovelful shovelsful
show shown
showcase showcased showcases showcasing
showman showmen
showy showier showiest
shrewd shrewder shrewdest
shrill shriller shrillest
shrine shrined shrining
shrink shrank shrunk shrunken
shrive shriven shriving shrove
shrivel shrivelled shrivelling
shrubby shrubbier shrubbiest
shuffle shuffled shuffling
shush shushes
shuttle shuttled shuttling
shy shied shyer shyest
sick sicker sickest sicklier sickliest
sickle sickled sickling
side sided
sideline sidelined sidelining
sideswipe sideswiped sideswiping
sidle sidled sidling
sieve sieved
signal signalled
signalise signalised signalises signalising
signalize signalized signalizes signalizing
signify signified
sil sillier silliest
silage silaged silaging
silence silenced silencing
silhouette silhouetted silhouetting
silicate silicated silicating
silicosis silicoses
silky silkier silkiest
simple simpler simplest
simplex simplices simplicia
simplify simplified
simulate simulated simulating
sincere sincerer sincerest
sing sang sung
singe singed
single singled singling
sink sank sunk
sinusitis sinusitides
sire sired siring
sit sat
site sited siting
situate situated situating
size sized sizes sizing
sizzle sizzled sizzling
skate skated skating
skedaddle skedaddled skedaddling
sketch sketches
sketchy sketchier sketchiest
ski skiis skis
skimpy skimpier skimpiest
skinny skinnier skinniest
skirmish skirmishes
slack slacker slackest
slake slaked slaking
slangy slangier slangiest
slash slashes
slate slated slating
slaughterhouse slaughterhouses
slave slaved slaving
slay slain slew
sleazy sleazier sleaziest
sledge sledged sledging
sleek sleeker sleekest
sleep slept
sleepy sleepier sleepiest
slender slenderer slenderest
slenderise slenderised slenderises slenderising
slenderize slenderized slenderizes slenderizing
slice sliced slicing
slick slickest
slide slid sliding
slight slighter slightest
slim slimmest
slimy slimier slimiest
sling slung
slink slunk
slinky slinkier slinkiest
slope sloped sloping
sloppy sloppier sloppiest
slosh sloshes
slouch slouches
slow slower slowest
sludge sludged sludging
sluice sluiced sluicing
slush slushes
slushy slushier slushiest
sly slier sliest
small smaller smallest
smart smarter smartest
smash smashes
smel smellier smelliest
smile smiled smiling
smirch smirches
smite smiting smitten smote
smoggy smoggier smoggiest
smoke smoked
smokehouse smokehouses
smokey smokeyer smokeyest
smoky smokier smokiest
smooth smoothes smoothest
smudge smudged smudging
smug smugger smuggest
smuggle smuggled smuggling
smutty smuttier smuttiest
snaffle snaffled snaffling
snafu snafus
snake snaked snaking
snaky snakier snakiest
snappy snappier snappiest
snare snared snaring
snatch snatches
sneaky sneakier sneakiest
sneeze sneezed sneezes sneezing
sniff sniffed sniffing
sniffle sniffled sniffling
snipe sniped sniping
snitch snitches
snivel snivelled snivelling
snooty snootier snootiest
snooze snoozed snoozes snoozing
snore snored snoring
snorkel snorkelled snorkelling
snotty snottier snottiest
snowman snowmen
snowshoe snowshoed
snowy snowier snowiest
snuff snuffed snuffing
snuffle snuffled snuffling
snug snugger snuggest
snuggle snuggled snuggling
soapy soapier soapiest
sober soberer soberest
socialise socialised socialises socialising
socialize socialized socializes socializing
soft softer softest
soggy soggier soggiest
solace solaced solacing
solarium solaria
sole soled soling
solemnise solemnised solemnises solemnising
solemnize solemnized solemnizes solemnizing
solidify solidified
soliloquise soliloquised soliloquises soliloquising
soliloquize soliloquized soliloquizes soliloquizing
solo soli
solve solved solving
soon sooner soonest
soothe soothed soothing
sooty sootier sootiest
sophisticate sophisticated sophisticating
sore sorer sorest
sorry sorrier sorriest
sortie sorties
sound sounder soundest
soupy soupier soupiest
sour sourer sourest
source sourced sourcing
souse soused souses sousing
sow sown
space spaced
spaceman spacemen
spacey spacy
spacy spacey
spade spaded spading
spadeful spadesful
spangle spangled spangling
spare spared sparer sparest sparing
sparkle sparkled sparkling
sparse sparser sparsest
spate spated spating
spatula spatulae
spe sped speeded speeding
speak spoken
specialise specialised specialises specialising
specialize specialized specializes specializing
specify specified
speckle speckled speckling
spectrum spectra
speculate speculated speculating
speech speeches
speedy speedier speediest
spend spent
spermatozoon spermatozoa
spice spiced spicing
spicy spicier spiciest
spike spiked spiking
spiky spikier spikiest
spill spilt
spin spun
spind spindlier spindliest
spindle spindled spindling
spiny spinier spiniest
spiral spiralled spiralling
spite spited spiting
splash splashes
splice spliced
splotch splotches
splotchy splotchier splotchiest
splurge splurged splurging
spoil spoilt
spokesman spokesmen
spokeswoman spokeswomen
sponge sponged sponging
spongy spongier spongiest
spooky spookier spookiest
spoonful spoonsful
sportsman sportsmen
sportswoman sportswomen
sporty sportier sportiest
spotty spottier spottiest
spouse spouses
spright sprightlier sprightliest
spring sprang sprung
sprinkle sprinkled sprinkling
spruce spruced sprucer sprucest sprucing
spry sprier spriest spryer spryest
sputum sputa
spy spied
squabble squabbled squabbling
square squared squarer squarest squaring
squash squashes
squashy squashier squashiest
squeaky squeakier squeakiest
squeegee squeegeed squeegeeing
squeeze squeezed squeezes squeezing
squelch squelches
squig squigglier squiggliest
squire squired squiring
squishy squishier squishiest
stabilise stabilised stabilises stabilising
stabilize stabilized stabilizes stabilizing
stable stabled stabler stablest stabling
stadium stadia
staff staffed staffing
stage staged staging
stagecoach stagecoaches
stagnate stagnated stagnating
staircase staircases
stake staked staking
stale staled staler stalest staling
stalemate stalemated stalemating
stampede stampeded stampeding
stanch stancher stanches stanchest
stand stood
standardise standardised standardises standardising
standardize standardized standardizes standardizing
staphylococcus staphylococci
staple stapled
starch starches
starchy starchier starchiest
stare stared staring
starfish starfishes
stark starker starkest
starry starrier starriest
startle startled startling
starve starved starving
stash stashes
state stated statelier stateliest stating
statehouse statehouses
statesman statesmen
staunch stauncher staunches staunchest
stave staved staving
stay staid
ste steelier steeliest
steady steadied steadier steadiest
steakhouse steakhouses
steal stole stolen
stealthy stealthier stealthiest
steamy steamier steamiest
steep steeper steepest
steeplechase steeplechases
stench stenches
stencil stencilled stencilling
stepchild stepchildren
stereotype stereotyped stereotyping
sterilise sterilised sterilises sterilising
sterilize sterilized sterilizes sterilizing
stern sterner sternest
sternum sterna
sticky stickier stickiest
stiff stiffed stiffer stiffest stiffing
stifle stifled stifling
stigma stigmata
stigmatise stigmatised stigmatises stigmatising
stigmatize stigmatized stigmatizes stigmatizing
still stiller stillest
stimulate stimulated stimulating
stimulus stimuli
sting stung
stingy stingier stingiest
stink stank stunk
stipple stippled stippling
stipulate stipulated stipulating
stitch stitches
stockade stockaded stockading
stockpile stockpiled stockpiling
stocky stockier stockiest
stodgy stodgier stodgiest
stoke stoked stoking
stone stoned stoning
stopwatch stopwatches
store stored storing
storehouse storehouses
stormy stormier stormiest
stout stouter stoutest
straddle straddled straddling
strafe strafed strafing
strag stragglier straggliest
straggle straggled straggling
straight straighter straightest
strange strangest
strangle strangled strangling
strangulate strangulated strangulating
stratify stratified
stratum strata
streaky streakier streakiest
streamline streamlined streamlining
streptococcus streptococci
stretch stretches
stretchy stretchier stretchiest
strew strewn
strict stricter strictest
stricture strictured stricturing
stride stridden striding strode
strike stricken striking struck
string strung
stringy stringier stringiest
strive strived striven strove
strobe strobed strobing
stroke stroked stroking
strong stronger strongest
structure structured structuring
struggle struggled struggling
strychnine strychnined strychnining
stub stubblier stubbliest
stubby stubbier stubbiest
stucco stuccoes
study studied
stuff stuffed
stuffy stuffier stuffiest
stultify stultified
stumble stumbled stumbling
stumpy stumpier stumpiest
stupefy stupefied
stupid stupider stupidest
sturdy sturdier sturdiest
style styled styling
stylise stylised stylises stylising
stylize stylized stylizes stylizing
stylus styli
stymie stymied stymies
subculture subcultured subculturing
subdivide subdivided subdividing
subdue subdued subduing
subjugate subjugated subjugating
sublease subleased subleases subleasing
sublimate sublimated sublimating
sublime sublimed subliming
submerge submerged submerging
submerse submersed submerses submersing
subordinate subordinated subordinating
subscribe subscribed subscribing
subside subsided subsiding
subsidise subsidised subsidises subsidising
subsidize subsidized subsidizes subsidizing
substantiate substantiated substantiating
substitute substituted substituting
substratum substrata
substructure substructured substructuring
subsume subsumed subsuming
subtitle subtitled subtitling
subtle subtler subtlest
succe succeeded succeeding
suckle suckled
sue sued suing
suffice sufficed sufficing
suffocate suffocated suffocating
suffuse suffused suffuses suffusing
sugary sugarier sugariest
suicide suicided suiciding
suitcase suitcases
sul sullied sullying
sulfate sulfated sulfating
sulky sulkier sulkiest
sulphate sulphated sulphating
summarise summarised summarises summarising
summarize summarized summarizes summarizing
summon summonses
sunbathe sunbathed sunbathing
sunfish sunfishes
sunny sunnier sunniest
sunrise sunrises
sup supplied supplying
superannuate superannuated superannuating
supercharge supercharged supercharging
superimpose superimposed superimposes superimposing
superman supermen
supernova supernovae
supersize supersized supersizes supersizing
supervene supervened supervening
supervise supervised supervises supervising
supervize supervized supervizes supervizing
supplicate supplicated supplicating
suppose supposed supposes supposing
suppurate suppurated suppurating
surcease surceased surceases surceasing
surcharge surcharged surcharging
sure surer surest
surface surfaced surfacing
surge surged surging
surmise surmised surmises surmising
surprise surprised surprises surprising
surprize surprized surprizes surprizing
surrogate surrogated surrogating
survive survived surviving
suture sutured suturing
swaddle swaddled
swampy swampier swampiest
swash swashes
swatch swatches
swathe swathed swathing
swear swore sworn
sweaty sweatier sweatiest
sweep swept
sweet sweeter sweetest
swell swollen
swerve swerved swerving
swift swifter swiftest
swim swam swum
swindle swindled swindling
swing swung
swipe swiped swiping
swir swirlier swirliest
swish swishes
switch switches
swivel swivelled swivelling
swordfish swordfishes
swordsman swordsmen
syllabify syllabified
syllabus syllabi
symbiosis symbioses
symbolise symbolised symbolises symbolising
symbolize symbolized symbolizes symbolizing
sympathise sympathised sympathises sympathising
sympathize sympathized sympathizes sympathizing
symposium symposia
synapse synapsed synapses synapsing
synchronise synchronised synchronises synchronising
synchronize synchronized synchronizes synchronizing
syncopate syncopated syncopating
syndicate syndicated syndicating
synopsis synopses
synthesis syntheses
synthesise synthesised synthesises synthesising
synthesize synthesized synthesizes synthesizing
syringe syringed syringing
systematise systematised systematises systematising
systematize systematized systematizes systematizing
table tabled tabling
tableau tableaus tableaux
tablespoonful tablespoonsful
taboo tabooed tabooing
tabu tabus
tabulate tabulated tabulating
tackle tackled tackling
tailgate tailgated tailgating
take taken took
tal tallied tallying
talc talcked talcking
talisman talismen
tall taller tallest
tame tamed tamer tamest taming
tan tannest
tangle tangled tangling
tangy tangier tangiest
tantalise tantalised tantalises tantalising
tantalize tantalized tantalizes tantalizing
tape taped taping
tarantula tarantulae
tardy tardier tardiest
tarmac tarmacked tarmacking
tarnish tarnishes
tarry tarried
tart tarter tartest
tassel tasselled
taste tasted tasting
tasty tastier tastiest
tattle tattled tattling
taut tauter tautest
tawdry tawdrier tawdriest
tawny tawnier tawniest
taxi taxies taxying
teach taught teaches
tear tore torn
tearga teargases
teary tearier teariest
tease teased teases teasing
teasel teaselled teaselling
teaspoonful teaspoonsful
tee teed teeing
teeny teenier teeniest
teethe teethed teething
telecommute telecommuted
teleconference teleconferenced
telephone telephoned telephoning
telescope telescoped telescoping
televise televised televises televising
tell told
template templated templating
tempo tempi
temporise temporised temporises temporising
temporize temporized temporizes temporizing
tender tenderer tenderest
tenderfoot tenderfeet
tenderise tenderised tenderises tenderising
tenderize tenderized tenderizes tenderizing
tendinitis tendinitides
tendonitis tendonitides
tense tensed tenses tensest tensing
tenure tenured tenuring
terminate terminated terminating
terminus termini
terrace terraced terracing
terrarium terraria
terrify terrified
terrorise terrorised terrorises terrorising
terrorize terrorized terrorizes terrorizing
terse terser tersest
testate testated testating
testify testified
testis testes
testy testier testiest
tetanus tetani
tetrahedron tetrahedra
texture textured
thalamus thalami
thatch thatches
theorise theorised theorises theorising
theorize theorized theorizes theorizing
thermo thermoses
thermoplastic thermoplasticer thermoplasticest
thesaurus thesauri
thesis theses
thick thicker thickest
thieve thieved thieving
thimbleful thimblesful
thin thinnest
thirsty thirstier thirstiest
thorax thoraces
thorny thornier thorniest
thrash thrashes
threadbare threadbarer threadbarest
thresh threshes
thrifty thriftier thriftiest
thrive thrived thriven thriving throve
throaty throatier throatiest
throe throed
thrombosis thromboses
throne throned throning
throttle throttled throttling
throw threw thrown
thrush thrushes
thymus thymi
tibia tibiae
tickle tickled tickling
tide tided tiding
tidy tidied tidier tidiest
tie tied tying
tight tighter tightest
tile tiled tiling
time timed timelier timeliest
timetable timetabled timetabling
tincture tinctured tincturing
tine tined tining
tingle tingled tingling
tinkle tinkled tinkling
tinny tinnier tinniest
tiny tinier tiniest
tipple tippled tippling
tipsy tipsier tipsiest
tiptoe tiptoed
tire tired tiring
tithe tithed tithing
titillate titillated titillating
title titled titling
titmouse titmice
toady toadied
tobacco tobaccoes
toddle toddled toddling
toe toed
tofu tofus
toggle toggled toggling
tolerate tolerated tolerating
tomato tomatoes
tone toned toning
tongue tongued tonguing
tonsillitis tonsillitides
tonsure tonsured tonsuring
tooth teeth
toothbrush toothbrushes
toothy toothier toothiest
topple toppled toppling
torch torches
tornado tornadoes
torpedo torpedoes
torque torqued torquing
torso torsi torsoes
tortoise tortoises
torture tortured torturing
torus tori
total totalled totalling
tote toted toting
touch touches
touchy touchier touchiest
tough tougher toughest
tousle tousled tousling
towel towelled towelling
townhouse townhouses
townsman townsmen
trace traced
trachea tracheae
trade traded trading
tradesman tradesmen
traduce traduced traducing
traffic trafficked trafficking
trammel trammelled trammelling
trample trampled trampling
tranquil tranquiler tranquilest tranquiller tranquillest
transcribe transcribed transcribing
transfigure transfigured transfiguring
transfuse transfused transfuses transfusing
translate translated translating
transliterate transliterated transliterating
transmigrate transmigrated transmigrating
transmute transmuted transmuting
transpire transpired transpiring
transpose transposed transposes transposing
transverse transversed transverses transversing
trapeze trapezes
trash trashes
trashy trashier trashiest
trauma traumata
traumatise traumatised traumatises traumatising
traumatize traumatized traumatizes traumatizing
travel travelled travelling
traverse traversed traverses traversing
travesty travestied
tread trod trodden
treadle treadled treadling
treasure treasured treasuring
treatise treatises
treble trebled trebling
tree treed treeing
tremble trembled trembling
trench trenches
trendy trendier trendiest
triage triaged triaging
tribesman tribesmen
tricep tricepses
trickle trickled trickling
tricky trickier trickiest
trifle trifled trifling
trim trimmest
triple tripled tripling
triplicate triplicated triplicating
trivialise trivialised trivialises trivialising
trivialize trivialized trivializes trivializing
trouble troubled troubling
trounce trounced trouncing
trousseau trousseaus trousseaux
truckle truckled truckling
trudge trudged trudging
true trued trueer trueest truing
truncate truncated truncating
trundle trundled trundling
trusty trustier trustiest
try tried
tsunami tsunamis
tuba tubae
tubby tubbier tubbiest
tuber tubera
tuberculosis tuberculoses
tumble tumbled tumbling
tune tuned tuning
tunnel tunnelled tunnelling
turf turves
tussle tussled tussling
tuxedo tuxedoes
twiddle twiddled twiddling
twiggy twiggier twiggiest
twine twined twining
twinge twinged twinging
twinkle twinkled
twitch twitches
tympanum tympana
type typed
typify typified
tyrannise tyrannised tyrannises tyrannising
tyrannize tyrannized tyrannizes tyrannizing
ubangi ubangis
ugly uglier ugliest
ulcerate ulcerated ulcerating
ulna ulnae
ultimatum ultimata
umbilicus umbilici
umpire umpired umpiring
unbend unbent
unbind unbound
unbuckle unbuckled unbuckling
uncouple uncoupled uncoupling
undeceive undeceived undeceiving
underachieve underachieved underachieving
undercharge undercharged undercharging
underclassman underclassmen
underestimate underestimated underestimating
underexpose underexposed underexposes underexposing
underlie underlain underlies underlying
underline underlined underlining
undermine undermined undermining
underpay underpaid
underrate underrated underrating
underscore underscored underscoring
undersell undersold
undershoot undershot
understand understood
understate understated understating
understudy understudied
undervalue undervalued undervaluing
underwrite underwriting underwritten underwrote
undo undid undoes undone
undulate undulated undulating
uneasy uneasier uneasiest
unfriend unfriendlier unfriendliest
unhappy unhappier unhappiest
unhealthy unhealthier unhealthiest
unhinge unhinged unhinging
unhorse unhorsed unhorses unhorsing
unify unified
unionise unionised unionises unionising
unionize unionized unionizes unionizing
unite united uniting
universe universes
unlace unlaced unlacing
unlatch unlatches
unlearn unlearnt
unleash unleashes
unlike unlikelier unlikeliest
unloose unloosed unlooses unloosing
unmake unmaked unmaking
unnerve unnerved unnerving
unravel unravelled unravelling
unru unrulier unruliest
unsay unsaid
unscramble unscrambled unscrambling
unsettle unsettled unsettling
unsheathe unsheathed unsheathing
unsight unsightlier unsightliest
untangle untangled untangling
untidy untidier untidiest
untie untied unties untying
unwieldy unwieldier unwieldiest
unwind unwound
up ups
update updated updating
upgrade upgraded upgrading
uphold upheld
upperclassman upperclassmen
upraise upraised upraises upraising
upscale upscaled upscaling
upstage upstaged upstaging
uptake uptaked uptaking
urbanise urbanised urbanises urbanising
urbanize urbanized urbanizes urbanizing
urethra urethrae
urge urged
urinalysis urinalyses
urinate urinated urinating
use used using
uterus uteri
utilise utilised utilises utilising
utilize utilized utilizes utilizing
uvula uvulae
vacate vacated vacating
vaccinate vaccinated vaccinating
vacillate vacillated vacillating
vacuum vacua
vagina vaginae
vague vagueer vagueest
vain vainer vainest
validate validated validating
value valued valuing
vamoose vamoosed vamooses vamoosing
vandalise vandalised vandalises vandalising
vandalize vandalized vandalizes vandalizing
vanish vanishes
vanquish vanquishes
vaporise vaporised vaporises vaporising
vaporize vaporized vaporizes vaporizing
vapourise vapourised vapourises vapourising
vapourize vapourized vapourizes vapourizing
variegate variegated variegating
varnish varnishes
vary varied
vase vases
vast vaster vastest
vegetate vegetated vegetating
venerate venerated venerating
ventilate ventilated ventilating
venture ventured venturing
verbalise verbalised verbalises verbalising
verbalize verbalized verbalizes verbalizing
verge verged verging
verify verified
verse verses
versify versified
vertebra vertebrae
vertex vertices
vertigo vertigines vertigoes
vetch vetches
veto vetoes
via viae
vibrate vibrated vibrating
victimise victimised victimises victimising
victimize victimized victimizes victimizing
victual victualled victualling
videotape videotaped videotaping
vie vied vying
vignette vignetted
vile viler vilest
vilify vilified
vindicate vindicated vindicating
vine vined vining
violate violated violating
virago viragoes
virtuoso virtuosi
viscus viscera
vise vised vises vising
visualise visualised visualises visualising
visualize visualized visualizes visualizing
vitalise vitalised vitalises vitalising
vitalize vitalized vitalizes vitalizing
vitiate vitiated vitiating
vituperate vituperated vituperating
vivify vivified
vocalise vocalised vocalises vocalising
vocalize vocalized vocalizes vocalizing
vociferate vociferated vociferating
vogue vogued voguing
voice voiced voicing
void voider voidest
volcano volcanoes
volume volumed voluming
vortex vortices
vote voted voting
vouch vouches
vouchsafe vouchsafed vouchsafing
voyage voyaged voyaging
vulcanise vulcanised vulcanises vulcanising
vulcanize vulcanized vulcanizes vulcanizing
vulgarise vulgarised vulgarises vulgarising
vulgarize vulgarized vulgarizes vulgarizing
vulva vulvae
wacky wackier wackiest
waddle waddled waddling
wade waded wading
waffle waffled waffling
wage waged waging
waggle waggled waggling
waive waived waiving
wake waked woke woken
wale waled
wan wanner wannest
wane waned waning
wangle wangled wangling
warble warbled warbling
ware wared waring
warehouse warehoused warehouses
warm warmest
wary warier wariest
wash washes
washerwoman washerwomen
waste wasted wasting
watch watches
watchman watchmen
watercourse watercourses
wave waved waving
wavy wavier waviest
waxy waxier waxiest
waylay waylaid
weak weaker weakest
weakfish weakfishes
wealthy wealthier wealthiest
wear wore worn
weary wearied wearier weariest
weatherize weatherized weatherizes weatherizing
weatherman weathermen
weave weaved weaving wove woven
wedge wedged wedging
wee weeer weeest weeing
weedy weedier weediest
weep wept
weighty weightier weightiest
weird weirder weirdest
welch welches
welcome welcomed welcoming
welsh welshes
wench wenches
werewolf werewolves
westernise westernised westernises westernising
westernize westernized westernizes westernizing
wet wettest
wharf wharves
wheedle wheedled wheedling
wheeze wheezed wheezes
wheezy wheezier wheeziest
while whiled whiling
whine whined whining
whinny whinnied
whistle whistled whistling
white whited whiter whitest
whitefish whitefishes
whitewash whitewashes
whittle whittled whittling
wholesale wholesaled wholesaling
whoosh whooshes
whorehouse whorehouses
wick wickeder wickedest
wide wider widest
wife wives
wiggle wiggled wiggling
wild wilder wildest
wile wiled wiling
wily wilier wiliest
win won
wince winced wincing
winch winches
windy windier windiest
winterise winterised winterises winterising
winterize winterized winterizes winterizing
wintry wintrier wintriest
wipe wiped wiping
wire wired
wiry wirier wiriest
wise wised wiser wises wisest wising
wish wishes
wispy wispier wispiest
witch witches
withdraw withdrawn withdrew
withhold withheld
withstand withstood
witty wittier wittiest
wo woolier wooliest
wobble wobbled wobbling
wolf wolves
woman women
womanise womanised womanises womanising
womanize womanized womanizes womanizing
woo wooed wooing
woodman woodmen
woodsman woodsmen
woodsy woodsier woodsiest
woody woodier woodiest
wool woollier woolliest
woozy woozier wooziest
wordy wordier wordiest
workbench workbenches
workhorse workhorses
workhouse workhouses
workingman workingmen
workman workmen
wormy wormier wormiest
worry worried
worse worsed worses worsing
worthy worthier worthiest
wrangle wrangled wrangling
wreathe wreathed wreathing
wrench wrenches
wrestle wrestled
wretch wretches
wriggle wriggled wriggling
wring wrung
wrink wrinklier wrinkliest
wrinkle wrinkled wrinkling
wristwatch wristwatches
write written wrote
writhe writhed writhing
yachtsman yachtsmen
yeasty yeastier yeastiest
yellow yellower yellowest
yeoman yeomen
yodel yodelled yodelling
yogi yogis
yoke yoked yoking
young younger youngest
yucky yuckier yuckiest
zany zanier zaniest
zebu zebus
zero zeroes
zinc zincked zinked
zirconium zirconia
zombi zombis
zombie zombies
zone zoned zoning
zucchini zucchinis
"""

FORMS: dict[str, str] = {
    form: line.split(" ", 1)[0] for line in TABLE.splitlines() for form in line.split(" ")[1:]
}
