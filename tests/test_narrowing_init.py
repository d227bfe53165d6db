"""A negative constant in the braces of an unsigned type (taskflow's cuda_memory.hpp:527,
`return size_type {-1};` in cudaDeviceAllocator::max_size): nvcc accepts the narrowing and
converts the value, clang rejects it, so every one of taskflow's 12 CUDA units was called
"ports cleanly" and failed. The braces become parentheses, the same conversion (CP181)."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes
from conftest import compile_object

SOURCE = ("#include <cstddef>\n#include <cstdint>\n#include <cuda_runtime.h>\n"
          "template <typename T>\nstruct Alloc {\n  using size_type = std::size_t;\n"
          "  typedef unsigned int uint;\n"
          "  size_type max_size() const noexcept { return size_type {-1}; }\n"
          "  uint low() const { return uint{ -0x2 }; }\n"
          "  int signed_one() const { return int{-1}; }\n"
          "  void release(T* p) { cudaFree(p); }\n};\n"
          "__global__ void k(unsigned* out) { out[0] = unsigned{-1} + std::uint32_t{-3}; }\n"
          "// size_type {-1} in a comment\nconst char* text = \"size_type {-1}\";\n"
          "struct Big { Big(int) {} };\nBig big() { return Big{-1}; }\n")


def translate(src: str):
    result = translate_bytes(src.encode(), Options(target_version="7.2"), "alloc.cu")
    return result.output.decode(), [f for f in result.findings if f.code == "CP181"]


def test_braces_of_unsigned_types_become_parentheses():
    out, found = translate(SOURCE)
    assert "return size_type (-1); }" in out  # (an alias the file declares)
    assert "return uint( -0x2 ); }" in out  # (a typedef, the literal's blanks kept)
    assert "out[0] = unsigned(-1) + std::uint32_t(-3); }" in out
    assert "return int{-1};" in out  # (a signed type: nothing narrows)
    assert "return Big{-1};" in out  # (a class: braces may pick another constructor)
    assert "// size_type {-1} in a comment" in out and '"size_type {-1}"' in out
    assert [(f.line, f.identifier, f.severity) for f in found] == [
        (8, "size_type", "info"), (9, "uint", "info"), (13, "unsigned", "info"),
        (13, "std::uint32_t", "info")]
    assert "nvcc accepts and hipcc's clang rejects" in found[0].message


def test_a_second_pass_changes_nothing():
    out, _ = translate(SOURCE)
    assert translate_bytes(out.encode(), Options(target_version="7.2"), "alloc.cu").output \
        .decode() == out


def test_members_and_cut_names_are_left():
    out, found = translate("struct S { unsigned size_t; };\n"
                           "unsigned f(S s) { return s.size_t{-1}; }\n")
    assert not found and "s.size_t{-1}" in out


@pytest.mark.slow
def test_the_translation_compiles_to_object_code(tmp_path):
    out, _ = translate(SOURCE)
    path = tmp_path / "alloc.hip"
    path.write_text(out)
    compile_object(path, "gfx90a")
    compile_object(path, "gfx90a", "6.4")
