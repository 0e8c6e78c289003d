//go:build linux

#include "textflag.h"

// func storeFence()
TEXT ·storeFence(SB), NOSPLIT|NOFRAME, $0-0
	DMB	$0xa // ISHST
	RET

// func loadFence()
TEXT ·loadFence(SB), NOSPLIT|NOFRAME, $0-0
	DMB	$0x9 // ISHLD
	RET
