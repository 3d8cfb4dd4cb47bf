// attack: climb out of the toolkit's headers to a classmate's kernel with '..'
// exercise: 01-vector-add
// expect: fail compile
#include <../../../../../../../../tmp/classmate/exercises/01-vector-add/kernel.cu>
