"""What content may not do: fetch (CSS, links that leave the document), publish an unsafe
picture, reach files outside the project through a symbolic link."""
