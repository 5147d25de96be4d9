#include <cstdio>
int main() { std::puts("tensordiag 0.1.0"); return 0; }
