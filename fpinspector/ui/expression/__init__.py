"""The Expression panel: the expression field, its bindings, the step table (model vs GPU
per D3D instruction), its GPU, and error maps over two of its variables."""
