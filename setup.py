"""The package list, found rather than kept by hand: every package under generator/ (a folder
with an __init__.py), and the folders that ship inside it as data (pyproject.toml's
package-dir: the default templates, the docs, the example game). Everything else about the package is in pyproject.toml."""

from setuptools import find_packages, setup

setup(packages=find_packages(include=["generator", "generator.*"]) + ["generator.templates", "generator.docs",
                                                                             "generator.examples.zwiad"])
