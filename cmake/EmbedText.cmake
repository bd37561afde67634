# Turn a text file into a C source defining a NUL-terminated char array.
# Usage: cmake -DINPUT=file -DOUTPUT=file.c -DSYMBOL=name -P EmbedText.cmake
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}" "/* Generated from ${INPUT}; do not edit. */\nconst char ${SYMBOL}[] = {\n${bytes}0x00\n};\n")
