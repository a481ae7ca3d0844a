"""Rulesmith's own interface words (not game content), per output language."""

from __future__ import annotations

UI: dict[str, dict[str, str]] = {
    "en": {
        "contents": "Contents", "example": "Example", "verified": "Verified by the rules checker",
        "note": "Designer note", "untranslated": "Not yet translated", "glossary": "Glossary",
        "page": "Page", "of": "of", "draft": "DRAFT", "search": "Search", "previous": "Previous",
        "next": "Next", "games": "Games", "language": "Language", "downloads": "Downloads",
        "rulebook": "Rulebook", "cards": "Card sheets", "reference": "Reference sheet",
        "units": "Units", "keywords": "Keywords", "tables": "Tables", "incomplete": "Incomplete",
        "roll": "Roll", "name": "Name", "quantity": "Quantity", "deck": "Deck", "back": "Back",
        "weapons": "Weapons", "abilities": "Abilities", "stats": "Profile", "definition": "Definition",
        "skip": "Skip to content", "menu": "Menu", "show-notes": "Show designer notes",
        "errata": "Errata", "source": "Source", "reading": "Reading", "examples": "Examples",
        "probabilities": "Probabilities", "dice": "Dice", "actions": "Actions", "terrain": "Terrain",
        "bands": "Distance bands", "rules": "Rules", "parameters": "Parameters", "components": "Components",
        "decks": "Decks", "card": "Card", "side": "Side", "type": "Type",
        "counters": "Counter sheets", "maps": "Maps", "map": "Map", "sides": "Sides",
        "maps-large": "Maps, one page each",
        "map-tile": "Map {map}, page {n} of {total}: row {row}, column {col}",
    },
    "ru": {
        "contents": "Содержание", "example": "Пример", "verified": "Проверено проверкой правил",
        "note": "Заметка автора", "untranslated": "Ещё не переведено", "glossary": "Глоссарий",
        "page": "Страница", "of": "из", "draft": "ЧЕРНОВИК", "search": "Поиск", "previous": "Назад",
        "next": "Далее", "games": "Игры", "language": "Язык", "downloads": "Скачать",
        "rulebook": "Книга правил", "cards": "Листы карт", "reference": "Памятка",
        "units": "Юниты", "keywords": "Ключевые слова", "tables": "Таблицы", "incomplete": "Неполно",
        "roll": "Бросок", "name": "Название", "quantity": "Количество", "deck": "Колода", "back": "Рубашка",
        "weapons": "Оружие", "abilities": "Способности", "stats": "Профиль", "definition": "Определение",
        "skip": "К содержанию", "menu": "Меню", "show-notes": "Показать заметки автора",
        "errata": "Опечатки источника", "source": "Источник", "reading": "Прочтение", "examples": "Примеры",
        "probabilities": "Вероятности", "dice": "Кубики", "actions": "Действия", "terrain": "Местность",
        "bands": "Дистанции", "rules": "Правила", "parameters": "Параметры", "components": "Компоненты",
        "decks": "Колоды", "card": "Карта", "side": "Сторона", "type": "Тип",
        "counters": "Листы фишек", "maps": "Карты местности", "map": "Карта местности", "sides": "Стороны",
        "maps-large": "Карты местности целиком",
        "map-tile": "Карта «{map}», лист {n} из {total}: ряд {row}, столбец {col}",
    },
}


def ui(lang: str, key: str) -> str:
    return UI.get(lang, UI["en"]).get(key) or UI["en"][key]
