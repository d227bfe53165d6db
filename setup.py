"""Package list for setuptools (metadata lives in pyproject.toml).

Every package below cudaport/ is found automatically; the rule tables in rules/ at the
top of the repository are shipped inside the package as ``cudaport._rules``.
"""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["cudaport", "cudaport.*"]) + ["cudaport._rules"],
    package_dir={"cudaport._rules": "rules"},
)
