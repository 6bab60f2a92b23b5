"""Short everyday-prose samples per language, written for these fixtures.

Free of ``<``, ``&``, CR and NUL so that a marker element's DOM text equals its source text.
"""

from __future__ import annotations

import unicodedata

SAMPLES: dict[str, str] = {
    "en": (
        "This is a plain English page. The weather was very nice today, so we went for a walk "
        "in the park. At noon we had lunch in a small cafe near the station. In the afternoon "
        "we read books about the history of the region, and in the evening we watched the news."
    ),
    "fr": (
        "Ceci est une page en français. Aujourd'hui il faisait très beau, alors nous sommes "
        "allés nous promener au parc. À midi, nous avons déjeuné dans un petit café près de la "
        "gare. L'après-midi, nous avons lu des livres sur l'histoire de la région. Le soir, nous "
        "avons regardé les informations à la télévision."
    ),
    "de": (
        "Dies ist eine deutsche Webseite. Heute war das Wetter sehr schön, deshalb sind wir im "
        "Park spazieren gegangen. Mittags haben wir in einem kleinen Café am Bahnhof gegessen. "
        "Am Nachmittag lasen wir Bücher über die Geschichte der Region. Abends sahen wir die "
        "Nachrichten im Fernsehen. Viele Grüße aus München!"
    ),
    "ja": (
        "日本語の文章です。今日は天気がとても良いので、公園へ散歩に行きました。桜の花が咲いて"
        "いて、たくさんの人が写真を撮っていました。駅の近くの喫茶店でコーヒーを飲みながら、新"
        "しい本を読みました。夕方には家に帰って、家族と一緒に晩ご飯を食べました。"
    ),
    "zh-hans": (
        "这是一个简体中文的网页。今天天气很好，我们去公园散步。公园里有很多人在跳舞和唱歌。"
        "中午我们在一家小饭馆吃了饺子和面条。下午我去图书馆看书，学习了历史和地理。晚上回家"
        "以后，和家人一起看电视新闻。"
    ),
    "zh-hant": (
        "這是一個繁體中文的網頁。今天天氣很好，我們去公園散步。公園裡有很多人在跳舞和唱歌。"
        "中午我們在一家小飯館吃了餃子和麵條。下午我去圖書館看書，學習了歷史和地理。晚上回家"
        "以後，和家人一起看電視新聞。"
    ),
    "ko": (
        "이것은 한국어로 된 웹 페이지입니다. 오늘은 날씨가 아주 좋아서 친구들과 함께 공원에 "
        "산책을 갔습니다. 점심에는 작은 식당에서 김치찌개와 비빔밥을 먹었습니다. 오후에는 "
        "도서관에서 책을 읽고 역사 공부를 했습니다. 저녁에는 가족과 함께 뉴스를 보았습니다."
    ),
    "ru": (
        "Это страница на русском языке. Сегодня была очень хорошая погода, и мы пошли гулять в "
        "парк. В парке было много людей, которые читали книги и играли в шахматы. Потом мы "
        "пообедали в маленьком кафе недалеко от вокзала. Вечером вся семья смотрела новости по "
        "телевизору."
    ),
    "uk": (
        "Це сторінка українською мовою. Сьогодні була чудова погода, і ми пішли гуляти до "
        "парку. Вдень ми обідали в маленькому кафе біля вокзалу. Ввечері вся родина дивилася "
        "новини. Їжачок їв яблуко, а ґава сиділа на гілці."
    ),
    "el": (
        "Αυτή είναι μια σελίδα στα ελληνικά. Σήμερα ο καιρός ήταν πολύ καλός και πήγαμε βόλτα "
        "στο πάρκο. Το μεσημέρι φάγαμε σε μια μικρή ταβέρνα κοντά στη θάλασσα. Το απόγευμα "
        "διαβάσαμε βιβλία για την ιστορία της Ελλάδας. Το βράδυ είδαμε ειδήσεις στην τηλεόραση."
    ),
    "he": (
        "זהו דף אינטרנט בעברית. היום מזג האוויר היה נעים מאוד והלכנו לטייל בפארק. בצהריים "
        "אכלנו במסעדה קטנה ליד הים. אחר הצהריים קראנו ספרים על ההיסטוריה של הארץ. בערב צפינו "
        "בחדשות בטלוויזיה עם כל המשפחה."
    ),
    "ar": (
        "هذه صفحة باللغة العربية. كان الطقس اليوم جميلا جدا فذهبنا إلى الحديقة للتنزه. في "
        "الظهر تناولنا الغداء في مطعم صغير بالقرب من البحر. بعد الظهر قرأنا كتبا عن تاريخ "
        "المنطقة. في المساء شاهدنا الأخبار في التلفزيون مع العائلة."
    ),
    "th": (
        "นี่คือหน้าเว็บภาษาไทย วันนี้อากาศดีมาก เราจึงไปเดินเล่นที่สวนสาธารณะ "
        "ตอนกลางวันเรากินข้าวที่ร้านอาหารเล็กๆ ใกล้ทะเล ตอนบ่ายเราอ่านหนังสือเกี่ยวกับ"
        "ประวัติศาสตร์ ตอนเย็นเราดูข่าวทางโทรทัศน์กับครอบครัว"
    ),
    "pl": (
        "To jest strona w języku polskim. Dzisiaj pogoda była bardzo ładna, więc poszliśmy na "
        "spacer do parku. W południe zjedliśmy obiad w małej restauracji niedaleko dworca. Po "
        "południu czytaliśmy książki o historii Polski. Wieczorem oglądaliśmy wiadomości w "
        "telewizji. Zażółć gęślą jaźń."
    ),
    "cs": (
        "Toto je stránka v českém jazyce. Dnes bylo velmi hezké počasí, a tak jsme šli na "
        "procházku do parku. V poledne jsme obědvali v malé restauraci u nádraží. Odpoledne "
        "jsme četli knihy o historii země. Večer jsme se dívali na zprávy v televizi."
    ),
    "hu": (
        "Ez egy magyar nyelvű weboldal. Ma nagyon szép idő volt, ezért elmentünk sétálni a "
        "parkba. Délben egy kis étteremben ebédeltünk a folyó közelében. Délután könyveket "
        "olvastunk az ország történelméről. Este a híreket néztük a televízióban."
    ),
    "tr": (
        "Bu Türkçe bir web sayfasıdır. Bugün hava çok güzeldi, bu yüzden parkta yürüyüşe "
        "çıktık. Öğlen denizin yakınındaki küçük bir lokantada yemek yedik. Öğleden sonra "
        "ülkenin tarihi hakkında kitaplar okuduk. Akşam ailemizle birlikte televizyonda "
        "haberleri izledik."
    ),
    "vi": (
        "Đây là một trang web tiếng Việt. Hôm nay thời tiết rất đẹp nên chúng tôi đi dạo trong "
        "công viên. Buổi trưa chúng tôi ăn cơm ở một quán nhỏ gần biển. Buổi chiều chúng tôi "
        "đọc sách về lịch sử của đất nước. Buổi tối cả gia đình cùng xem tin tức trên truyền "
        "hình."
    ),
    "lt": (
        "Tai yra puslapis lietuvių kalba. Šiandien oras buvo labai gražus, todėl ėjome "
        "pasivaikščioti į parką. Pietums valgėme mažame restorane prie jūros. Po pietų "
        "skaitėme knygas apie šalies istoriją. Vakare su šeima žiūrėjome žinias per televiziją."
    ),
}

# windows-1258 writes Vietnamese tones as combining marks after a (partly precomposed) base.
_VI_TONES = {"\u0300", "\u0301", "\u0303", "\u0309", "\u0323"}


def windows_1258_form(text: str) -> str:
    """The text as windows-1258 can hold it: base letters composed, tone marks combining."""
    out = []
    for ch in text:
        try:
            ch.encode("cp1258")
            out.append(ch)
            continue
        except UnicodeEncodeError:
            pass
        parts = unicodedata.normalize("NFD", ch)
        tones = "".join(c for c in parts if c in _VI_TONES)
        base = unicodedata.normalize("NFC", "".join(c for c in parts if c not in _VI_TONES))
        out.append(base + tones)
    return "".join(out)


def long_form(text: str, min_bytes: int, codec: str) -> str:
    """Numbered repeats of ``text`` as paragraphs until the encoding is ``min_bytes`` long."""
    parts: list[str] = []
    n = 0
    while len("".join(parts).encode(codec)) < min_bytes:
        n += 1
        parts.append(f"{n}. {text}\n")
    return "".join(parts)
