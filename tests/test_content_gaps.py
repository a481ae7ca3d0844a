

def test_a_card_too_long_is_an_error_and_its_sheets_are_not_written(ws):
    ws.edit("data/cards.yaml", "    text: One unit moves and then attacks.",
            "    text: " + "One unit moves and attacks. " * 200)
    result = ws.run("build", "--only", "cards", "--no-images", "--jobs", "1")
    said = result.stdout + result.stderr
    assert result.returncode == 1
    assert "content/demo/data/cards.yaml:3: error[E040]: en/cards.pdf: content overflows its card" in said
    assert not (ws.root / "output/demo/en/cards.pdf").exists()
    assert (ws.root / "output/demo/en/cards.layout-errors.pdf").is_file()
