% regexp in a loop: tokens and matches.
t = 0;
for k = 1:14000
    line = sprintf('id=%d; name=user%d; score=%d', k, mod(k, 37), mod(k * 13, 101));
    tok = regexp(line, 'score=(\d+)', 'tokens');
    nums = regexp(line, '\d+', 'match');
    t = t + str2double(tok{1}{1}) + numel(nums);
end
fprintf('%d\n', t);
