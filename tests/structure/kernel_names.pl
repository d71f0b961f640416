#!/usr/bin/env perl
# Prints "NAME<TAB>FILE:LINE" for every __global__ kernel definition in the files given, and
# "?<TAB>FILE:LINE" for a __global__ it cannot read as a declaration or a definition.
# Understands: template lines before it, static / inline / extern, attributes with arguments
# (__launch_bounds__(128, f(N)), __maxnreg__(R)), line breaks anywhere. Declarations and explicit
# instantiations (ending in ';') are not definitions. Comments and string literals are ignored.
use strict;
use warnings;

my $P = qr{ ( \( (?: [^()]++ | (?-1) )* \) ) }x;   # balanced parentheses
for my $file (@ARGV) {
  open(my $fh, '<', $file) or die "cannot read $file: $!\n";
  my $src = do { local $/; <$fh> };
  close $fh;
  $src =~ s{/\*.*?\*/}{ my $c = $&; $c =~ tr/\n//cd; $c }gse;   # block comments, lines kept
  $src =~ s{//[^\n]*}{}g;                                        # line comments
  $src =~ s{"(?:[^"\\\n]|\\.)*"}{""}g;                           # string literals
  while ($src =~ /\b__global__\b/g) {
    my ($start, $end) = ($-[0], $+[0]);
    my $line = 1 + (substr($src, 0, $start) =~ tr/\n//);
    my $rest = substr($src, $end, 4000);
    # skip qualifiers and attributes, then NAME (params) followed by '{' or ';'
    $rest =~ s/\A(?:\s+|\b(?:static|inline|void|extern|__noinline__|__forceinline__)\b|\b__\w+__\s*$P)*//s;
    if ($rest =~ /\A([A-Za-z_]\w*)\s*(?:<[^<>(){};]*>\s*)?$P\s*([{;])/s) {
      my ($name, $after) = ($1, $3);
      print "$name\t$file:$line\n" if $after eq '{';
    } else {
      print "?\t$file:$line\n";
    }
  }
}
