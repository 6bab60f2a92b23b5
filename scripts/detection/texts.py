"""Prose for the labelled detection pages (written for this project), by language.

Each entry: language code -> (encodings the text is written in, paragraphs). The first
paragraph alone makes the short page; all of them the long one.
"""

from __future__ import annotations

TEXTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        ("windows-1252",),
        (
            "The café on Mill Lane charges £4.50 for a pot of tea — “still cheaper than the station”, "
            "says the owner.",
            "Opening hours change in winter; the terrace closes at 6 pm and the kitchen at half past. "
            "Tickets for the quiz night cost £3 and include a slice of cake.",
        ),
    ),
    "fr": (
        ("windows-1252", "ISO-8859-15"),
        (
            "Le marché de la place est ouvert dès sept heures : fraîches, les pêches coûtent 3 € le "
            "kilo, et le bœuf à l’étal du boucher est très apprécié.",
            "À côté de l’église, la bibliothèque prête des livres aux élèves ; l’hiver, on y "
            "organise des lectures où chacun peut présenter son œuvre préférée.",
            "Les enfants reçoivent un goûter gratuit le mercredi après-midi. Il faut s’inscrire à "
            "l’accueil, près de la fenêtre qui donne sur le jardin.",
        ),
    ),
    "de": (
        ("windows-1252",),
        (
            "Die Bäckerei in der Hauptstraße öffnet schon um sechs Uhr früh. Für zwei Brötchen "
            "zahlt man nur wenige Cent, und der Kuchen schmeckt großartig.",
            "Im Frühling führt ein schöner Weg über die Brücke zum Fluss. Viele Familien gehen dort "
            "spazieren, während die Kinder auf der Wiese Fußball spielen.",
            "Wer mehr über die Geschichte der Stadt erfahren möchte, besucht das Museum am Markt; "
            "der Eintritt ist für Schüler kostenlos.",
        ),
    ),
    "es": (
        ("windows-1252",),
        (
            "¿Sabías que la biblioteca del barrio abre también los domingos? El año pasado la "
            "visitaron más de diez mil niños, según la dirección.",
            "En la planta baja hay una sala de lectura con sillones cómodos y una cafetería "
            "pequeña. ¡Allí preparan un café con leche riquísimo por dos euros!",
            "Los jóvenes pueden pedir prestados portátiles durante una semana; sólo hace falta "
            "enseñar el carné y firmar una solicitud sencilla.",
        ),
    ),
    "pt": (
        ("windows-1252",),
        (
            "A padaria da esquina está aberta desde as seis da manhã. O pão de queijo é famoso em "
            "toda a região, e as crianças adoram os bolinhos de limão.",
            "No verão, a praça enche-se de músicos e de turistas. As informações sobre os concertos "
            "estão disponíveis na câmara municipal, ao lado da estação.",
        ),
    ),
    "it": (
        ("windows-1252",),
        (
            "La città è famosa per il suo caffè: già alle sette del mattino i bar sono pieni di "
            "gente che legge il giornale e chiacchiera della partita.",
            "Più tardi, verso mezzogiorno, le trattorie servono piatti semplici ma buonissimi. "
            "Perché non provare la pasta fatta in casa con il ragù della nonna?",
        ),
    ),
    "ca": (
        ("windows-1252",),
        (
            "L’ajuntament ha decidit obrir la piscina municipal durant tot l’estiu. Els nens "
            "menors de dotze anys hi podran entrar gratuïtament els dijous.",
            "A més, la biblioteca organitzarà col·loquis sobre la història del poble i exposicions "
            "de fotografia a la sala d’actes.",
        ),
    ),
    "nl": (
        ("windows-1252",),
        (
            "De bakker op de hoek verkoopt ’s ochtends vers brood en heerlijke croissants. Voor "
            "één euro krijg je een beschuit met muisjes, een échte traditie.",
            "In het weekend is de markt op het plein erg druk; vooral de kaas en de bloemen zijn "
            "populair bij toeristen uit België en Duitsland.",
        ),
    ),
    "sv": (
        ("windows-1252",),
        (
            "Biblioteket vid torget är öppet även på lördagar. Där kan man låna böcker, läsa "
            "tidningar och dricka kaffe i det lilla kaféet på andra våningen.",
            "På sommaren ordnas sagostunder för barnen ute i trädgården, och på hösten håller "
            "författare föredrag om sina nya romaner.",
        ),
    ),
    "da": (
        ("windows-1252",),
        (
            "Bageren på hjørnet sælger friskt rugbrød hver morgen. Om søndagen står folk i kø for "
            "at købe de berømte kanelsnegle, før de går ned til søen.",
            "Kommunen har besluttet at åbne en ny børnehave ved skolen næste år, så forældrene "
            "ikke behøver at køre så langt.",
        ),
    ),
    "no": (
        ("windows-1252",),
        (
            "Det nye badet på øya åpner til sommeren. Billetten koster hundre kroner for voksne, "
            "mens barn under seks år går gratis inn på lørdager.",
            "Om høsten kan man gå tur langs fjorden og plukke blåbær i skogen bak gården.",
        ),
    ),
    "fi": (
        ("windows-1252",),
        (
            "Kaupungin kirjasto on auki myös lauantaisin. Lapset voivat lainata kirjoja ja pelata "
            "lautapelejä yläkerran pelihuoneessa, jossa on hyvä tunnelma.",
            "Kesällä järjestetään ulkoilmakonsertteja puistossa järven rannalla, ja pääsy on "
            "ilmainen kaikille kävijöille.",
        ),
    ),
    "is": (
        ("windows-1252", "ISO-8859-10"),
        (
            "Sundlaugin í bænum er opin alla daga vikunnar. Þar er heitur pottur og gufubað, og "
            "börnin geta leikið sér í rennibrautinni.",
            "Á sumrin er hægt að fara í gönguferðir upp á fjallið og horfa yfir fjörðinn þegar "
            "veðrið er gott.",
        ),
    ),
    "et": (
        ("windows-1257", "ISO-8859-13", "ISO-8859-15", "ISO-8859-4"),
        (
            "Linna raamatukogu on avatud ka laupäeviti. Lapsed võivad seal lugeda raamatuid ja "
            "mängida lauamänge, täiskasvanud joovad kohvi ja loevad ajalehti.",
            "Suvel korraldatakse pargis tasuta kontserte ning sügisel toimub järve ääres "
            "õunalaat, kuhu tuleb palju külalisi naaberküladest.",
        ),
    ),
    "lv": (
        ("windows-1257", "ISO-8859-13", "ISO-8859-4", "ISO-8859-10"),
        (
            "Pilsētas bibliotēka ir atvērta arī sestdienās. Bērni tur var lasīt grāmatas un spēlēt "
            "galda spēles, bet pieaugušie dzer kafiju un šķirsta žurnālus.",
            "Vasarā parkā notiek bezmaksas koncerti, un rudenī pie ezera ir ābolu tirgus, uz kuru "
            "brauc ciemiņi no kaimiņu ciemiem.",
        ),
    ),
    "lt": (
        ("windows-1257", "ISO-8859-13", "ISO-8859-4", "ISO-8859-10"),
        (
            "Miesto biblioteka dirba ir šeštadieniais. Vaikai čia gali skaityti knygas ir žaisti "
            "stalo žaidimus, o suaugusieji geria kavą ir vartydami žurnalus ilsisi.",
            "Vasarą parke vyksta nemokami koncertai, o rudenį prie ežero rengiama obuolių mugė, į "
            "kurią suvažiuoja svečiai iš kaimyninių kaimų.",
        ),
    ),
    "pl": (
        ("windows-1250", "ISO-8859-2", "ISO-8859-13", "ISO-8859-16"),
        (
            "Biblioteka miejska jest czynna także w soboty. Dzieci mogą tam czytać książki i grać "
            "w gry planszowe, a dorośli piją kawę i przeglądają gazety.",
            "Latem w parku odbywają się bezpłatne koncerty, a jesienią nad jeziorem organizuje się "
            "jarmark, na który przyjeżdżają goście z sąsiednich wsi.",
        ),
    ),
    "cs": (
        ("windows-1250", "ISO-8859-2"),
        (
            "Městská knihovna je otevřená i v sobotu. Děti si tam můžou číst knížky a hrát "
            "společenské hry, dospělí pijí kávu a prohlížejí si časopisy.",
            "V létě se v parku konají koncerty zdarma a na podzim se u rybníka pořádá jarmark, na "
            "který přijíždějí návštěvníci ze sousedních vesnic.",
        ),
    ),
    "sk": (
        ("windows-1250", "ISO-8859-2"),
        (
            "Mestská knižnica je otvorená aj v sobotu. Deti si tam môžu čítať knihy a hrať "
            "spoločenské hry, dospelí pijú kávu a listujú v časopisoch.",
            "V lete sa v parku konajú koncerty zadarmo a na jeseň sa pri jazere koná jarmok, na "
            "ktorý prichádzajú návštevníci zo susedných dedín. Ľudia sa tešia.",
        ),
    ),
    "hu": (
        ("windows-1250", "ISO-8859-2"),
        (
            "A városi könyvtár szombaton is nyitva tart. A gyerekek könyveket olvashatnak és "
            "társasjátékokat játszhatnak, a felnőttek „kávézójában” újságot böngésznek.",
            "Nyáron ingyenes koncerteket rendeznek a parkban, ősszel pedig vásár lesz a tó "
            "partján, ahová a szomszédos falvakból is érkeznek vendégek.",
        ),
    ),
    "sl": (
        ("windows-1250", "ISO-8859-2"),
        (
            "Mestna knjižnica je odprta tudi ob sobotah. Otroci lahko tam berejo knjige in se "
            "igrajo družabne igre, odrasli pa pijejo kavo in listajo revije.",
            "Poleti so v parku brezplačni koncerti, jeseni pa ob jezeru pripravijo sejem, na "
            "katerega pridejo obiskovalci iz sosednjih vasi.",
        ),
    ),
    "hr": (
        ("windows-1250", "ISO-8859-2"),
        (
            "Gradska knjižnica otvorena je i subotom. Djeca ondje mogu čitati knjige i igrati "
            "društvene igre, a odrasli piju kavu i čitaju časopise uz veliki prozor.",
            "Ljeti se u parku održavaju besplatni koncerti, a ujesen se uz jezero priređuje sajam "
            "na koji dolaze posjetitelji iz susjednih sela. Ćevapi su uvijek tu.",
        ),
    ),
    "ro": (
        ("ISO-8859-16",),
        (
            "Biblioteca orășenească este deschisă și sâmbăta. Copiii pot citi cărți și pot juca "
            "jocuri de societate, iar adulții beau cafea și răsfoiesc „reviste” noi.",
            "Vara, în parc au loc concerte gratuite, iar toamna se organizează un târg lângă lac, "
            "la care vin vizitatori din satele învecinate.",
        ),
    ),
    "ro-cedilla": (
        ("windows-1250", "ISO-8859-2"),
        (
            "Biblioteca orăşenească este deschisă şi sâmbăta. Copiii pot citi cărţi şi pot juca "
            "jocuri de societate, iar adulţii beau cafea şi răsfoiesc reviste noi.",
            "Vara, în parc au loc concerte gratuite, iar toamna se organizează un târg lângă lac, "
            "la care vin vizitatori din satele învecinate.",
        ),
    ),
    "tr": (
        ("windows-1254",),
        (
            "Şehir kütüphanesi cumartesi günleri de açık. Çocuklar orada kitap okuyabilir ve kutu "
            "oyunları oynayabilir; büyükler ise kahve içip gazete okuyor.",
            "Yazın parkta ücretsiz konserler düzenleniyor, sonbaharda da gölün kıyısında komşu "
            "köylerden gelen ziyaretçilerle dolu bir panayır kuruluyor.",
        ),
    ),
    "mt": (
        ("ISO-8859-3",),
        (
            "Il-librerija tal-belt hija miftuħa wkoll nhar is-Sibt. It-tfal jistgħu jaqraw il-kotba "
            "u jilagħbu logħob, filwaqt li l-kbar jixorbu l-kafè ħdejn it-tieqa.",
            "Fis-sajf isiru kunċerti b’xejn fil-ġnien, u fil-ħarifa jsir suq żgħir ħdejn il-port.",
        ),
    ),
    "eo": (
        ("ISO-8859-3",),
        (
            "La urba biblioteko estas malfermita ankaŭ sabate. Infanoj povas tie legi librojn kaj "
            "ludi ŝakon, dum plenkreskuloj trinkas kafon kaj ĉiam babilas.",
            "Somere okazas senpagaj koncertoj en la parko, kaj aŭtune oni aranĝas foiron apud la "
            "lago, al kiu venas gastoj el ĉirkaŭaj vilaĝoj por manĝi ĝuste bone.",
        ),
    ),
    "cy": (
        ("ISO-8859-14",),
        (
            "Mae llyfrgell y dref ar agor ar ddydd Sadwrn hefyd. Gall plant ddarllen llyfrau a "
            "chwarae gemau, ac mae’r oedolion yn yfed coffi wrth y ffenestr; mae’n ŵyl i bawb.",
            "Yn yr haf mae cyngherddau am ddim yn y parc, ac yn yr hydref mae ffair ger y llyn "
            "lle daw ymwelwyr o’r pentrefi cyfagos i brynu tŷ bach o bren.",
        ),
    ),
    # Breton: word-final `ñ` (a nasal vowel) and the plural `-où`; its letters are the same
    # bytes in ISO-8859-14 and windows-1252.
    "br": (
        ("ISO-8859-14", "windows-1252"),
        (
            "Digor eo levraoueg kêr bemdez nemet d'ar Sul. Gallout a ra ar vugale lenn levrioù "
            "ha c'hoari gant o mignoned, hag an dud deuet a c'hall evañ kafe e-kichen ar "
            "prenestr pa vez glav.",
            "En hañv e vez aozet sonadegoù digoust er park, hag en diskar-amzer ez eus ur foar "
            "e-kichen al lenn, ma teu tud eus ar c'hêriadennoù tro-dro da brenañ boued ha traoù "
            "koant evit ar gouelioù.",
        ),
    ),
    # Scottish Gaelic: the grave accent only, `è` before `i` (`thèid`, `fèin`).
    "gd": (
        ("ISO-8859-14",),
        (
            "Tha leabharlann a' bhaile fosgailte Disathairne cuideachd. Faodaidh clann "
            "leabhraichean a leughadh agus geamannan a chluich, agus bidh na h-inbhich ag òl "
            "cofaidh ri taobh na h-uinneig. Thèid iad dhachaigh nuair a dh'fhàsas e dorcha.",
            "As t-samhradh bidh cuirmean-ciùil an-asgaidh sa phàirc, agus as t-fhoghar bidh "
            "fèill ri taobh an loch far an tig daoine bho na bailtean mun cuairt gus biadh math "
            "a cheannach dhaibh fèin.",
        ),
    ),
    "vi": (
        ("windows-1258",),
        (
            "Thư viện thành phố mở cửa cả ngày thứ bảy. Trẻ em có thể đọc sách và chơi trò chơi, "
            "còn người lớn uống cà phê và đọc báo.",
            "Vào mùa hè, công viên tổ chức các buổi hòa nhạc miễn phí, và mùa thu có phiên chợ "
            "bên hồ với nhiều khách từ các làng lân cận.",
        ),
    ),
    "el": (
        ("windows-1253", "ISO-8859-7"),
        (
            "Η δημοτική βιβλιοθήκη είναι ανοιχτή και το Σάββατο. Τα παιδιά μπορούν να διαβάσουν "
            "βιβλία και να παίξουν επιτραπέζια, ενώ οι μεγάλοι πίνουν καφέ.",
            "Το καλοκαίρι γίνονται δωρεάν συναυλίες στο πάρκο, και το φθινόπωρο οργανώνεται "
            "παζάρι δίπλα στη λίμνη με επισκέπτες από τα γειτονικά χωριά.",
        ),
    ),
    "ru": (
        ("windows-1251", "KOI8-R", "ISO-8859-5", "IBM866", "x-mac-cyrillic"),
        (
            "Городская библиотека открыта и по субботам. Дети могут читать книги и играть в "
            "настольные игры, а взрослые пьют кофе и листают журналы.",
            "Летом в парке проходят бесплатные концерты, а осенью у озера устраивают ярмарку, на "
            "которую съезжаются гости из соседних деревень. Всё это — ради праздника.",
        ),
    ),
    "uk": (
        ("windows-1251", "KOI8-U"),
        (
            "Міська бібліотека відчинена й у суботу. Діти можуть читати книжки та грати в "
            "настільні ігри, а дорослі п’ють каву й гортають журнали.",
            "Улітку в парку відбуваються безкоштовні концерти, а восени біля озера влаштовують "
            "ярмарок, на який з’їжджаються гості з сусідніх сіл. Ґанок прикрашають квітами.",
        ),
    ),
    "be": (
        ("windows-1251",),
        (
            "Гарадская бібліятэка адчыненая і ў суботу. Дзеці могуць чытаць кнігі і гуляць у "
            "настольныя гульні, а дарослыя п’юць каву і гартаюць часопісы.",
            "Улетку ў парку праходзяць бясплатныя канцэрты, а ўвосень каля возера ладзяць кірмаш.",
        ),
    ),
    "bg": (
        ("windows-1251",),
        (
            "Градската библиотека е отворена и в събота. Децата могат да четат книги и да играят "
            "настолни игри, а възрастните пият кафе и разлистват списания.",
            "През лятото в парка има безплатни концерти, а есента край езерото се организира "
            "панаир, на който идват гости от съседните села.",
        ),
    ),
    "sr": (
        ("windows-1251",),
        (
            "Градска библиотека је отворена и суботом. Деца тамо могу да читају књиге и играју "
            "друштвене игре, а одрасли пију кафу и листају часописе.",
            "Лети се у парку одржавају бесплатни концерти, а у јесен се поред језера приређује "
            "вашар на који долазе гости из суседних села. Ђаци певају, џем је ту.",
        ),
    ),
    "mk": (
        ("windows-1251",),
        (
            "Градската библиотека е отворена и во сабота. Децата можат да читаат книги и да играат "
            "друштвени игри, а возрасните пијат кафе и листаат списанија.",
            "Во летото во паркот има бесплатни концерти, а наесен крај езерото се организира "
            "панаѓур на кој доаѓаат гости од соседните села. Ќе дојдат и ѕвездите.",
        ),
    ),
    "he": (
        ("windows-1255", "ISO-8859-8"),
        (
            "הספרייה העירונית פתוחה גם בשבת. הילדים יכולים לקרוא ספרים ולשחק במשחקי קופסה, "
            "והמבוגרים שותים קפה ומעלעלים בעיתונים.",
            "בקיץ מתקיימים בפארק קונצרטים בחינם, ובסתיו נערך יריד ליד האגם, ואליו מגיעים אורחים "
            "מהכפרים השכנים.",
        ),
    ),
    "ar": (
        ("windows-1256", "ISO-8859-6"),
        (
            "المكتبة العامة في المدينة مفتوحة أيضا يوم السبت. يستطيع الأطفال قراءة الكتب واللعب، "
            "بينما يشرب الكبار القهوة ويقرؤون الصحف.",
            "في الصيف تقام حفلات موسيقية مجانية في الحديقة، وفي الخريف يقام سوق قرب البحيرة يأتي "
            "إليه الزوار من القرى المجاورة.",
        ),
    ),
    "fa": (
        ("windows-1256",),
        (
            "کتابخانه شهر روزهای شنبه هم باز است. بچه‌ها می‌توانند کتاب بخوانند و بازی کنند، و "
            "بزرگ‌ترها چای می‌نوشند و روزنامه می‌خوانند.",
            "در تابستان کنسرت‌های رایگان در پارک برگزار می‌شود و در پاییز بازاری کنار دریاچه "
            "برپا می‌شود که مهمانانی از روستاهای همسایه به آن می‌آیند.",
        ),
    ),
    "th": (
        ("windows-874",),
        (
            "ห้องสมุดประจำเมืองเปิดให้บริการในวันเสาร์ด้วย เด็ก ๆ สามารถอ่านหนังสือและเล่นเกมได้ "
            "ส่วนผู้ใหญ่ก็ดื่มกาแฟและอ่านหนังสือพิมพ์",
            "ในฤดูร้อนมีคอนเสิร์ตฟรีในสวนสาธารณะ และในฤดูใบไม้ร่วงมีงานตลาดนัดริมทะเลสาบ",
        ),
    ),
    "ja": (
        ("Shift_JIS", "EUC-JP"),
        (
            "市立図書館は土曜日も開いています。子どもたちは本を読んだりゲームをしたりでき、"
            "大人はコーヒーを飲みながら新聞を読んでいます。",
            "夏には公園で無料のコンサートが開かれ、秋には湖のほとりで市場が開かれます。",
        ),
    ),
    "zh-hans": (
        ("GBK",),
        (
            "市图书馆星期六也开放。孩子们可以在那里看书、玩游戏，大人们则一边喝咖啡一边看报纸。",
            "夏天公园里有免费的音乐会，秋天湖边会举办集市，附近村子的客人都会来参加。",
        ),
    ),
    "zh-hant": (
        ("Big5",),
        (
            "市立圖書館星期六也開放。孩子們可以在那裡看書、玩遊戲，大人們則一邊喝咖啡一邊看報紙。",
            "夏天公園裡有免費的音樂會，秋天湖邊會舉辦市集，附近村子的客人都會來參加。",
        ),
    ),
    "ko": (
        ("EUC-KR",),
        (
            "시립 도서관은 토요일에도 문을 엽니다. 아이들은 책을 읽고 게임을 할 수 있으며, "
            "어른들은 커피를 마시며 신문을 읽습니다.",
            "여름에는 공원에서 무료 음악회가 열리고, 가을에는 호숫가에서 장터가 열립니다.",
        ),
    ),
}

# More languages, written for this project in other registers (news, history, instructions).
TEXTS.update({
    # Spoken Greek: words that drop their first vowel after one ending in a vowel keep an
    # apostrophe in its place (ISO-8859-7 0xA2, windows-1253 0x92).
    "el-spoken": (
        ("ISO-8859-7", "windows-1253"),
        (
            "Μου ’πε η γιαγιά να ’ρθω νωρίς, γιατί το φαγητό θα ’ναι έτοιμο στις δύο. Τι ’χεις"
            " και δεν τρως; Σαν να ’ταν χθες που παίζαμε στην αυλή.",
            "Ό,τι κι αν ’γινε, θα ’μαι εδώ. Το ’μαθα από τον γείτονα, που ’χε ακούσει τα νέα"
            " στο ραδιόφωνο. Πού ’σαι; Σε περιμένουμε στο καφενείο της πλατείας.",
        ),
    ),
    "ga": (
        ("windows-1252",),
        (
            "Tá an leabharlann poiblí ar oscailt ar an Satharn freisin. Is féidir le páistí "
            "leabhair a léamh agus cluichí a imirt, agus ólann na daoine fásta caife cois fuinneoige.",
            "Sa samhradh bíonn ceolchoirmeacha saor in aisce sa pháirc, agus san fhómhar bíonn "
            "aonach cois locha a dtagann cuairteoirí chuige ó na sráidbhailte máguaird.",
        ),
    ),
    "eu": (
        ("windows-1252",),
        (
            "Herriko liburutegia larunbatetan ere irekita dago. Haurrek liburuak irakurri eta "
            "jolasean ibil daitezke, eta helduek kafea hartzen dute egunkaria irakurtzen duten bitartean.",
            "Udan doako kontzertuak izaten dira parkean, eta udazkenean azoka antolatzen da aintziraren "
            "ondoan; inguruko herrietatik etortzen dira bisitariak, baita Iruñetik ere.",
        ),
    ),
    "gl": (
        ("windows-1252",),
        (
            "A biblioteca municipal tamén abre os sábados. Os nenos poden ler libros e xogar, "
            "mentres os maiores toman café e len o xornal á beira da xanela.",
            "No verán hai concertos de balde no parque, e no outono organízase unha feira preto do "
            "lago á que chegan visitantes das aldeas veciñas; a música é unha tradición.",
        ),
    ),
    "sq": (
        ("windows-1252",),
        (
            "Biblioteka e qytetit është e hapur edhe të shtunën. Fëmijët mund të lexojnë libra dhe "
            "të luajnë lojëra, ndërsa të rriturit pinë kafe dhe lexojnë gazetat.",
            "Në verë në park mbahen koncerte falas, ndërsa në vjeshtë organizohet një panair pranë "
            "liqenit, ku vijnë vizitorë nga fshatrat përreth. Çdo vit ka më shumë njerëz.",
        ),
    ),
    "af": (
        ("windows-1252",),
        (
            "Die stadsbiblioteek is ook Saterdae oop. Kinders kan boeke lees en speletjies speel, "
            "terwyl die ouer mense koffie drink en die koerant lees. Dit is ’n gewilde plek.",
            "In die somer is daar gratis konserte in die park, en in die herfs word ’n mark langs "
            "die meer gehou waarheen besoekers van die naburige dorpe kom. Ons sê: môre weer!",
        ),
    ),
    "fo": (
        ("windows-1252", "ISO-8859-10"),
        (
            "Býarbókasavnið er eisini opið leygardagar. Børnini kunnu lesa bøkur og spæla, meðan "
            "tey vaksnu drekka kaffi og lesa bløðini við vindeygað.",
            "Um summarið eru ókeypis konsertir í garðinum, og um heystið verður marknaður hildin "
            "við vatnið, har vitjandi koma úr grannabygdunum.",
        ),
    ),
    "ku": (
        ("windows-1254",),
        (
            "Pirtûkxaneya bajêr roja şemiyê jî vekirî ye. Zarok dikarin li wir pirtûkan bixwînin û "
            "lîstikan bilîzin, mezin jî qehwe vedixwin û rojnameyan dixwînin.",
            "Havînê li parkê konserên belaş çêdibin, û payîzê li kêleka golê bazarek tê lidarxistin "
            "ku mêvan ji gundên derdorê tên wê derê.",
        ),
    ),
    "ur": (
        ("windows-1256",),
        (
            "شہر کی لائبریری ہفتے کے دن بھی کھلی رہتی ہے۔ بچے وہاں کتابیں پڑھ سکتے ہیں اور کھیل "
            "سکتے ہیں، جبکہ بڑے چائے پیتے ہیں اور اخبار پڑھتے ہیں۔",
            "گرمیوں میں پارک میں مفت موسیقی کے پروگرام ہوتے ہیں، اور خزاں میں جھیل کے کنارے میلہ "
            "لگتا ہے جہاں آس پاس کے گاؤں سے لوگ آتے ہیں۔",
        ),
    ),
    "de-history": (
        ("windows-1252", "ISO-8859-15"),
        (
            "Im Jahr 1871 wurde das Deutsche Kaiserreich gegründet. Die Industrialisierung veränderte "
            "Städte und Dörfer grundlegend: Fabriken, Eisenbahnen und Großbanken prägten das Land.",
            "Nach dem Ersten Weltkrieg folgte die Weimarer Republik, deren Verfassung erstmals das "
            "Frauenwahlrecht festschrieb. Die Wirtschaftskrise von 1929 führte jedoch zu großer Not; "
            "ein Brot kostete zeitweise Millionen Mark, und viele Bürger verloren ihre Ersparnisse.",
        ),
    ),
    "fr-science": (
        ("windows-1252", "ISO-8859-15", "UTF-8", "UTF-16LE"),
        (
            "La photosynthèse est le processus par lequel les végétaux transforment l’énergie "
            "lumineuse en énergie chimique. Elle se déroule principalement dans les chloroplastes.",
            "Au cours de cette réaction, le dioxyde de carbone et l’eau sont convertis en glucose "
            "et en oxygène. Sans elle, la vie sur Terre telle que nous la connaissons n’existerait "
            "pas : c’est grâce à ce phénomène que l’atmosphère s’est enrichie en oxygène.",
        ),
    ),
    "es-news": (
        ("windows-1252", "ISO-8859-15"),
        (
            "El Gobierno aprobó ayer una reforma de la ley de vivienda que limitará el precio de "
            "los alquileres en las zonas más tensionadas, según informó la ministra en rueda de prensa.",
            "La oposición criticó la medida y anunció que presentará un recurso ante el Tribunal "
            "Constitucional. Los inquilinos, en cambio, celebraron la decisión: «Es un primer paso», "
            "dijo la portavoz de la asociación, que reúne a más de 3.000 familias de la región.",
        ),
    ),
    "pl-history": (
        ("windows-1250", "ISO-8859-2"),
        (
            "Pierwsza Rzeczpospolita była jednym z największych państw w Europie. W 1791 roku "
            "uchwalono Konstytucję 3 Maja, pierwszą taką ustawę na kontynencie.",
            "Po rozbiorach ziemie polskie znalazły się pod panowaniem Rosji, Prus i Austrii. "
            "Niepodległość odzyskano dopiero w listopadzie 1918 roku, po zakończeniu wojny światowej.",
        ),
    ),
    "cs-news": (
        ("windows-1250", "ISO-8859-2"),
        (
            "Vláda včera schválila návrh zákona o podpoře bydlení. Podle ministra by se díky němu "
            "měly zkrátit čekací lhůty na stavební povolení až o polovinu.",
            "Opozice návrh kritizuje a tvrdí, že nepřinese žádné skutečné zlepšení. Obce se obávají, "
            "že budou muset převzít další úkoly bez peněz navíc; řešení se hledá už třetí rok.",
        ),
    ),
    "hu-news": (
        ("windows-1250", "ISO-8859-2", "ISO-8859-16"),
        (
            "A kormány tegnap elfogadta az új lakhatási törvény tervezetét. A miniszter szerint az "
            "építési engedélyek kiadása akár felére is rövidülhet.",
            "Az ellenzék bírálja a javaslatot, és úgy véli, hogy az önkormányzatok további terheket "
            "kapnak pénz nélkül. A döntésről jövő hétfőn szavaz a parlament.",
        ),
    ),
    "hr-news": (
        ("windows-1250", "ISO-8859-2", "ISO-8859-16"),
        (
            "Vlada je jučer usvojila prijedlog zakona o stanovanju. Prema riječima ministra, "
            "izdavanje građevinskih dozvola trebalo bi se skratiti i do polovice.",
            "Oporba kritizira prijedlog i tvrdi da neće donijeti stvarna poboljšanja. Općine se "
            "boje da će morati preuzeti nove zadaće bez dodatnog novca; rješenje se traži već treću godinu.",
        ),
    ),
    "sk-news": (
        ("windows-1250", "ISO-8859-2"),
        (
            "Vláda včera schválila návrh zákona o podpore bývania. Podľa ministra by sa vďaka nemu "
            "mali skrátiť lehoty na stavebné povolenie až o polovicu.",
            "Opozícia návrh kritizuje a tvrdí, že neprinesie žiadne skutočné zlepšenie. Obce sa "
            "obávajú, že budú musieť prevziať ďalšie úlohy bez peňazí navyše.",
        ),
    ),
    "sl-news": (
        ("windows-1250", "ISO-8859-2", "ISO-8859-16"),
        (
            "Vlada je včeraj sprejela predlog zakona o stanovanjih. Po besedah ministra naj bi se "
            "izdajanje gradbenih dovoljenj skrajšalo tudi za polovico.",
            "Opozicija predlog kritizira in trdi, da ne bo prinesel resničnih izboljšav. Občine se "
            "bojijo, da bodo morale prevzeti nove naloge brez dodatnega denarja.",
        ),
    ),
    "tr-news": (
        ("windows-1254", "ISO-8859-3"),
        (
            "Hükümet dün yeni konut yasası tasarısını onayladı. Bakanın açıklamasına göre inşaat "
            "izinlerinin verilmesi yarı yarıya kısalabilecek.",
            "Muhalefet tasarıyı eleştirerek gerçek bir iyileşme getirmeyeceğini savundu. "
            "Belediyeler ise ek bütçe olmadan yeni görevler üstlenmekten çekiniyor.",
        ),
    ),
    "ru-news": (
        ("windows-1251", "KOI8-R", "KOI8-U", "ISO-8859-5", "IBM866", "x-mac-cyrillic", "UTF-8",
         "UTF-16LE", "UTF-16BE"),
        (
            "Правительство вчера одобрило законопроект о поддержке жилищного строительства. По словам "
            "министра, сроки выдачи разрешений на строительство сократятся вдвое.",
            "Оппозиция критикует документ и утверждает, что он не принесёт реальных улучшений. "
            "Муниципалитеты опасаются, что им придётся взять на себя новые обязанности без денег.",
        ),
    ),
    "uk-news": (
        ("windows-1251", "KOI8-U", "x-mac-cyrillic"),
        (
            "Уряд учора схвалив законопроєкт про підтримку житлового будівництва. За словами "
            "міністра, строки видачі дозволів на будівництво скоротяться вдвічі.",
            "Опозиція критикує документ і стверджує, що він не принесе реальних поліпшень. Громади "
            "побоюються, що їм доведеться взяти на себе нові обов’язки без грошей.",
        ),
    ),
    "be-news": (
        ("windows-1251", "KOI8-U", "ISO-8859-5"),
        (
            "Урад учора ўхваліў законапраект аб падтрымцы жыллёвага будаўніцтва. Паводле слоў "
            "міністра, тэрміны выдачы дазволаў на будаўніцтва скароцяцца ўдвая.",
            "Апазіцыя крытыкуе дакумент і сцвярджае, што ён не прынясе рэальных паляпшэнняў.",
        ),
    ),
    "bg-news": (
        ("windows-1251", "ISO-8859-5", "IBM866", "KOI8-R"),
        (
            "Правителството вчера одобри законопроекта за подкрепа на жилищното строителство. "
            "Според министъра сроковете за издаване на разрешения ще бъдат съкратени наполовина.",
            "Опозицията критикува документа и твърди, че той няма да донесе реални подобрения.",
        ),
    ),
    "sr-news": (
        ("windows-1251", "ISO-8859-5"),
        (
            "Влада је јуче усвојила предлог закона о подршци стамбеној изградњи. Према речима "
            "министра, рокови за издавање грађевинских дозвола биће скраћени за половину.",
            "Опозиција критикује документ и тврди да неће донети стварна побољшања. Општине "
            "страхују да ће морати да преузму нове обавезе без додатног новца.",
        ),
    ),
    "mk-news": (
        ("windows-1251", "ISO-8859-5"),
        (
            "Владата вчера го усвои предлогот на законот за поддршка на станбената изградба. "
            "Според министерот, роковите за издавање градежни дозволи ќе се скратат наполовина.",
            "Опозицијата го критикува документот и тврди дека нема да донесе вистински подобрувања.",
        ),
    ),
    "el-history": (
        ("windows-1253", "ISO-8859-7", "UTF-16LE"),
        (
            "Η Ελληνική Επανάσταση του 1821 οδήγησε στην ίδρυση του νεοελληνικού κράτους. Η πρώτη "
            "πρωτεύουσα ήταν το Ναύπλιο, ενώ η Αθήνα έγινε πρωτεύουσα το 1834.",
            "Κατά τον 19ο αιώνα η χώρα διπλασίασε σχεδόν την έκτασή της. Οι Ολυμπιακοί Αγώνες του "
            "1896 διεξήχθησαν στην Αθήνα, στο ανακαινισμένο Παναθηναϊκό Στάδιο.",
        ),
    ),
    "he-news": (
        ("windows-1255", "ISO-8859-8"),
        (
            "הממשלה אישרה אתמול את הצעת החוק לעידוד בניית דירות. לדברי השר, משך הטיפול בהיתרי בנייה "
            "יקוצר בחצי.",
            "האופוזיציה מתחה ביקורת על ההצעה וטענה כי היא לא תביא לשיפור של ממש. ראשי הרשויות "
            "המקומיות חוששים שיוטלו עליהם משימות חדשות ללא תקציב.",
        ),
    ),
    "ar-news": (
        ("windows-1256", "ISO-8859-6"),
        (
            "وافقت الحكومة أمس على مشروع قانون لدعم بناء المساكن. وقال الوزير إن مدة إصدار تراخيص "
            "البناء ستنخفض إلى النصف.",
            "وانتقدت المعارضة المشروع وقالت إنه لن يحقق أي تحسن حقيقي، بينما تخشى البلديات أن "
            "تتحمل مهام جديدة دون تمويل إضافي.",
        ),
    ),
    "th-news": (
        ("windows-874",),
        (
            "รัฐบาลอนุมัติร่างกฎหมายส่งเสริมการก่อสร้างที่อยู่อาศัยเมื่อวานนี้ รัฐมนตรีกล่าวว่า"
            "ระยะเวลาการออกใบอนุญาตก่อสร้างจะลดลงครึ่งหนึ่ง",
            "ฝ่ายค้านวิจารณ์ร่างกฎหมายดังกล่าวว่าจะไม่ช่วยให้สถานการณ์ดีขึ้นจริง",
        ),
    ),
    "vi-news": (
        ("windows-1258",),
        (
            "Chính phủ hôm qua đã thông qua dự thảo luật hỗ trợ xây dựng nhà ở. Theo bộ trưởng, "
            "thời gian cấp giấy phép xây dựng sẽ được rút ngắn một nửa.",
            "Phe đối lập chỉ trích dự thảo và cho rằng nó sẽ không mang lại cải thiện thực sự nào.",
        ),
    ),
    "ja-news": (
        ("Shift_JIS", "EUC-JP", "ISO-2022-JP", "UTF-8", "UTF-16BE"),
        (
            "政府は昨日、住宅建設を支援する法案を閣議決定した。大臣によると、建築許可の審査期間は"
            "半分に短縮される見通しだ。",
            "野党は法案を批判し、実質的な改善にはつながらないと主張している。",
        ),
    ),
    "zh-hans-news": (
        ("GBK", "gb18030"),
        (
            "政府昨天批准了支持住房建设的法律草案。部长表示，建筑许可证的审批时间将缩短一半。",
            "反对派批评该草案，认为它不会带来真正的改善。地方政府担心在没有额外资金的情况下承担新任务。",
        ),
    ),
    "zh-hant-news": (
        ("Big5",),
        (
            "政府昨天批准了支持住宅建設的法律草案。部長表示，建築許可證的審批時間將縮短一半。",
            "反對派批評該草案，認為它不會帶來真正的改善。地方政府擔心在沒有額外資金的情況下承擔新任務。",
        ),
    ),
    "ko-news": (
        ("EUC-KR",),
        (
            "정부는 어제 주택 건설을 지원하는 법안을 승인했다. 장관에 따르면 건축 허가 심사 기간이 "
            "절반으로 줄어들 전망이다. 똠양꿍 같은 외래어도 쓴다.",
            "야당은 법안을 비판하며 실질적인 개선으로 이어지지 않을 것이라고 주장했다.",
        ),
    ),
})

# Short English pages with two or three non-ASCII bytes.
FEW_BYTES: dict[str, tuple[str, str]] = {
    "en-pound": ("windows-1252", "Delivery costs £5 per order; free above £40."),
    "en-quotes": ("windows-1252", "It’s the “best” deal in town, they say."),
    "en-cafe": ("windows-1252", "Meet me at the café at 10 — don't be late."),
    "en-degree": ("windows-1252", "Bake at 180°C for 25 minutes · serves 4"),
    "es-question": ("windows-1252", "¿Dónde está la estación? Cerca del año nuevo."),
    "de-few": ("windows-1252", "Grüße aus München, bis bald!"),
    "fr-few": ("ISO-8859-15", "Le menu du jour coûte 12 € avec le dessert."),
    "pl-few": ("ISO-8859-2", "Dziękuję za wiadomość, do jutra!"),
    "cs-few": ("ISO-8859-2", "Děkuji za zprávu, uvidíme se zítra."),
    "el-apostrophe": ("ISO-8859-7", "Πες μου τι θα κάνεις αύριο, σ’ αγαπώ πολύ."),
    "el-aphaeresis": ("ISO-8859-7", "Θα ’ρθω αύριο το πρωί. Πού ’ναι το κλειδί;"),
    "pl-ze": ("windows-1250", "Sklep jest otwarty. Myslisz, że on przyjdzie?"),
    "pl-dzien": ("ISO-8859-2", "Strona glowna. Dzień dobry, zapraszamy."),
    "ga-few": ("windows-1252", "Welcome to our site. Oíche mhaith. Fan linn ar an suiomh."),
    "ro-signs": ("ISO-8859-16", "Biletul costă 12 €, spune „Gazeta” de azi."),
    # Only ISO-8859-16's quotes (ISO-8859-2 `Ľ ľ`) among Romanian words.
    "ro-quotes": (
        "ISO-8859-16",
        "Un „da” ferm, a spus ea. Programul este de luni pana vineri si biletele sunt pentru"
        " toata familia.",
    ),
    # windows-1250 `ă` (windows-1252 `ã`) and quotes among Romanian words.
    "ro-cost": ("windows-1250", "Noi am spus „da” si ea are biletul, care costă 12 € acum."),
    # ISO-8859-2 `ž` (windows-1250 `ľ`, Slovak) on a page of words only Czech has (`jsou`,
    # `pro`), written without diacritics but the last sentence's.
    "cs-zi": (
        "ISO-8859-2",
        "Vlaky jsou tady a listky jsou pro kazdeho. Pokladna je otevrena od rana do vecera,"
        " od pondeli do patku a v sobotu od osmi do poledne. Info na telefonu a na webu, kde"
        " to je jasne popsano. Kde je nádraží?",
    ),
}
